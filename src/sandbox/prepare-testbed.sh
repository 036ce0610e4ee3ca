#!/usr/bin/env bash
# Prepares the real Kubernetes control-plane binaries the sandbox runs:
#   etcd 3.4 (Debian package etcd-server) and kube-apiserver, kube-controller-manager,
#   kube-scheduler v1.20.2, built from Debian's source package `kubernetes` with Go from
#   Debian, after replacing the vendored modern-go/reflect2 v1.0.1 (crashes on Go >= 1.18)
#   with Debian's v1.0.2.
#
# The built binaries are cached outside the work tree, keyed by version:
#   ${FLEETDECK_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/fleetdeck}/kubernetes-v1.20.2/bin
# and nothing is done when they are already there.
#
# Machines that have official binaries can skip all of this by setting
#   FLEETDECK_ETCD, FLEETDECK_KUBE_APISERVER, FLEETDECK_KUBE_CONTROLLER_MANAGER,
#   FLEETDECK_KUBE_SCHEDULER
# to their paths.
#
# On success the last lines are `name=path` for each binary.
set -euo pipefail

K8S_VERSION=1.20.2
CACHE_DIR=${FLEETDECK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fleetdeck}
OUT=$CACHE_DIR/kubernetes-v$K8S_VERSION
BIN=$OUT/bin

fail() { echo "fleetdeck testbed: $*" >&2; exit 1; }
log() { echo "fleetdeck testbed: $*" >&2; }

print_paths() {
  echo "etcd=$1"
  echo "kube-apiserver=$2"
  echo "kube-controller-manager=$3"
  echo "kube-scheduler=$4"
}

# 1. Everything given by the environment: nothing to prepare.
if [[ -n "${FLEETDECK_ETCD:-}" && -n "${FLEETDECK_KUBE_APISERVER:-}" &&
      -n "${FLEETDECK_KUBE_CONTROLLER_MANAGER:-}" && -n "${FLEETDECK_KUBE_SCHEDULER:-}" ]]; then
  for b in "$FLEETDECK_ETCD" "$FLEETDECK_KUBE_APISERVER" "$FLEETDECK_KUBE_CONTROLLER_MANAGER" "$FLEETDECK_KUBE_SCHEDULER"; do
    [[ -x "$b" ]] || fail "$b (from FLEETDECK_* environment) is not an executable file; fix the path or unset the variable"
  done
  print_paths "$FLEETDECK_ETCD" "$FLEETDECK_KUBE_APISERVER" "$FLEETDECK_KUBE_CONTROLLER_MANAGER" "$FLEETDECK_KUBE_SCHEDULER"
  exit 0
fi

ETCD=${FLEETDECK_ETCD:-/usr/bin/etcd}
APISERVER=${FLEETDECK_KUBE_APISERVER:-$BIN/kube-apiserver}
CM=${FLEETDECK_KUBE_CONTROLLER_MANAGER:-$BIN/kube-controller-manager}
SCHED=${FLEETDECK_KUBE_SCHEDULER:-$BIN/kube-scheduler}

if [[ -x "$ETCD" && -x "$APISERVER" && -x "$CM" && -x "$SCHED" ]]; then
  print_paths "$ETCD" "$APISERVER" "$CM" "$SCHED"
  exit 0
fi

# 2. Can this machine build them?
[[ -f /etc/debian_version ]] || fail "this is not a Debian machine, so the binaries cannot be built here; set FLEETDECK_ETCD, FLEETDECK_KUBE_APISERVER, FLEETDECK_KUBE_CONTROLLER_MANAGER and FLEETDECK_KUBE_SCHEDULER to official v1.20+ binaries"
[[ "$(id -u)" == 0 ]] || fail "building needs root (apt-get install); run this as root once, or set the FLEETDECK_* binary variables to official binaries"
command -v apt-get >/dev/null || fail "apt-get is missing; set the FLEETDECK_* binary variables to official binaries"

export DEBIAN_FRONTEND=noninteractive
SRC_LIST=/etc/apt/sources.list.d/debian-src.sources
if [[ ! -f $SRC_LIST ]]; then
  [[ -f /etc/apt/sources.list.d/debian.sources ]] || fail "/etc/apt/sources.list.d/debian.sources is missing, so no deb-src entry can be derived; add a deb-src line for Debian and run again"
  log "adding a deb-src entry derived from debian.sources"
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$SRC_LIST"
fi

log "installing build dependencies (golang-go, etcd-server, rsync, make, reflect2)"
apt-get update -qq >&2
apt-get install -y -qq golang-go etcd-server rsync jq make golang-github-modern-go-reflect2-dev >&2
[[ -x "$ETCD" ]] || fail "etcd-server installed but $ETCD is missing"

if [[ -x "$APISERVER" && -x "$CM" && -x "$SCHED" ]]; then
  print_paths "$ETCD" "$APISERVER" "$CM" "$SCHED"
  exit 0
fi

WORK=$CACHE_DIR/build
mkdir -p "$WORK"
cd "$WORK"
if ! ls kubernetes_*.orig.tar.gz >/dev/null 2>&1; then
  log "downloading the Debian source package kubernetes"
  apt-get source --download-only kubernetes >&2
fi
TARBALL=$(ls kubernetes_*.orig.tar.gz | head -n1)
SRC=$WORK/kubernetes-$K8S_VERSION
if [[ ! -d $SRC ]]; then
  log "unpacking $TARBALL"
  tar xzf "$TARBALL"
fi
[[ -d $SRC ]] || fail "the source tarball did not unpack to kubernetes-$K8S_VERSION; check $WORK"

log "replacing vendored modern-go/reflect2 with Debian's fixed version"
rm -rf "$SRC/vendor/github.com/modern-go/reflect2"
cp -r /usr/share/gocode/src/github.com/modern-go/reflect2 "$SRC/vendor/github.com/modern-go/reflect2"
rm -f "$SRC/vendor/github.com/modern-go/reflect2/go.mod"

log "building kube-apiserver, kube-controller-manager, kube-scheduler (several minutes on a cold cache)"
cd "$SRC"
mkdir -p .go/src/k8s.io
ln -sfn ../../.. .go/src/k8s.io/kubernetes
mkdir -p "$WORK/home"
env GOPATH="$SRC/.go" CGO_ENABLED=0 HOME="$WORK/home" GOFLAGS= GO111MODULE=off \
  make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler" >&2

mkdir -p "$BIN.tmp"
for b in kube-apiserver kube-controller-manager kube-scheduler; do
  f=$(find "$SRC/_output" -type f -name "$b" -perm -u+x | head -n1)
  [[ -n "$f" ]] || fail "the build finished but $b was not found under $SRC/_output"
  cp "$f" "$BIN.tmp/$b"
done
rm -rf "$BIN"
mv "$BIN.tmp" "$BIN"
# The source tree and Go's build cache take gigabytes; only the binaries are needed from now on.
rm -rf "$SRC" "$WORK/home"
log "binaries cached in $BIN"
print_paths "$ETCD" "$BIN/kube-apiserver" "$BIN/kube-controller-manager" "$BIN/kube-scheduler"
