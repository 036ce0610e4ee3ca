/** A label as Kubernetes checks it (a qualified name, a value of at most 63 characters). */
const PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** What is wrong with the label, in a few words, or undefined. */
export function labelProblem(key: string, value: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined && (prefix.length > 253 || !PREFIX.test(prefix)))
    return `"${prefix}" is not a DNS subdomain (the label key's prefix)`;
  if (!NAME.test(name))
    return `"${key}" is not a label key (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`;
  if (!VALUE.test(value))
    return `"${value}" is not a label value (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`;
  return undefined;
}
