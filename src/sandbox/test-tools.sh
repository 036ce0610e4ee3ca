#!/usr/bin/env bash
# Makes sure the programs the tests run are installed (`npm run testtools`, run by `npm test`
# before vitest): a test that needs one of them fails without it, it is never skipped.
#
#   kubectl (1.24 or newer: `kubectl kustomize` with kustomize v4+), openssl, lsblk and unshare
#   (util-linux), zsh, fish, tmux, script (bsdutils), prometheus and prometheus-alertmanager (the
#   sandbox's monitoring)
#
# Nothing is done when all are there. Otherwise, as root on Debian, the missing ones are installed
# with apt-get; anywhere else the script fails with one line naming what is missing. Packages are
# installed with no service started (Debian's prometheus and prometheus-alertmanager would start
# system ones, listening on 9090 and 9093): a policy-rc.d refusing every start is put in place for
# the install when there is none, and removed after it.
set -euo pipefail

fail() { echo "fleetdeck testtools: $*" >&2; exit 1; }

# tool → Debian package
declare -A PACKAGE=([openssl]=openssl [lsblk]=util-linux [unshare]=util-linux [zsh]=zsh [fish]=fish [tmux]=tmux [script]=bsdutils
  [prometheus]=prometheus [prometheus-alertmanager]=prometheus-alertmanager)
TOOLS=(openssl lsblk unshare zsh fish tmux script prometheus prometheus-alertmanager)
KUBECTL_HOW="install kubectl 1.24 or newer (https://kubernetes.io/docs/tasks/tools/; Debian's kubernetes-client is 1.20, whose kustomize is too old)"

# kubectl is there and reports its kustomize (1.24 and newer do).
kubectl_ok() { [[ "$(kubectl version --client -o json 2>/dev/null)" == *'"kustomizeVersion"'* ]]; }

missing_tools() {
  local t
  for t in "${TOOLS[@]}"; do
    command -v "$t" >/dev/null || echo "$t"
  done
}

# While packages install, invoke-rc.d and deb-systemd-invoke start no service (exit 101: action
# forbidden). Ours only when there is none; removed on exit, however the script ends.
POLICY=/usr/sbin/policy-rc.d
no_service_starts() {
  [[ -e $POLICY ]] && return
  printf '#!/bin/sh\n# fleetdeck testtools: no service starts while the test tools install\nexit 101\n' >"$POLICY"
  chmod 755 "$POLICY"
  trap 'rm -f "$POLICY"' EXIT
}

# kubectl first: apt-get cannot give it.
command -v kubectl >/dev/null || fail "not installed: kubectl (the tests run it); $KUBECTL_HOW"
kubectl_ok || fail "the tests need kubectl 1.24 or newer ($(command -v kubectl) is older); $KUBECTL_HOW"

mapfile -t missing < <(missing_tools)
if ((${#missing[@]})); then
  packages=$(for t in "${missing[@]}"; do echo "${PACKAGE[$t]}"; done | sort -u | tr '\n' ' ')
  packages=${packages% }
  names=$(printf '%s, ' "${missing[@]}")
  names=${names%, }
  if [[ -f /etc/debian_version && "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    echo "fleetdeck testtools: installing $packages (for $names)" >&2
    export DEBIAN_FRONTEND=noninteractive
    no_service_starts
    log=$(mktemp)
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages; } >"$log" 2>&1 ||
      { cat "$log" >&2; rm -f "$log"; fail "apt-get install $packages failed (its output above)"; }
    rm -f "$log"
    mapfile -t missing < <(missing_tools)
    ((${#missing[@]} == 0)) || fail "still not installed after apt-get install $packages: ${missing[*]}"
  else
    fail "not installed: $names (the tests run them); install them (on Debian, as root: apt-get install $packages) and run npm test again"
  fi
fi

