/** The scripts `fleetdeck completion bash|zsh|fish` prints: each calls `fleetdeck complete -- …`. */
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/completion/script.js';

describe('completion scripts', () => {
  it('bash: registers its function, reads the words without bash-completion too', () => {
    const s = completionScript('bash');
    expect(s).toContain('complete -F __fleetdeck_complete fleetdeck');
    expect(s).toContain('fleetdeck complete --');
    expect(s).toContain('__fleetdeck_words() {');
    expect(s).toMatch(/__fleetdeck_complete\(\) \{\n[^}]*__fleetdeck_words\n/);
    // The fallback is defined before the function that calls it.
    expect(s.indexOf('__fleetdeck_words() {')).toBeLessThan(s.indexOf('__fleetdeck_complete() {'));
  });

  it('zsh: a compdef function', () => {
    const s = completionScript('zsh');
    expect(s).toMatch(/^#compdef fleetdeck/);
    expect(s).toContain('fleetdeck complete --');
  });

  it('fish: complete -c fleetdeck', () => {
    const s = completionScript('fish');
    expect(s).toContain('complete -c fleetdeck');
    expect(s).toContain('fleetdeck complete --');
  });
});
