// View patches (protocol.md, View patches): from protocol 2 on, a game.update carries only
// what changed in the view this page holds. A patch is a JSON merge patch (RFC 7386: objects
// merged key by key, null removes a key, anything else replaces) in which an object applied
// to an array patches the elements it names by index. Applied without knowing the rules.

// The patched value; `target` may be changed in place. Throws for an index the array lacks
// (a patch meant for another view).
export function applyViewPatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  if (Array.isArray(target)) {
    for (const [key, value] of Object.entries(patch)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= target.length) throw new Error(`view patch: no element ${key}`);
      target[index] = applyViewPatch(target[index], value);
    }
    return target;
  }
  const result = target !== null && typeof target === 'object' ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyViewPatch(result[key], value);
  }
  return result;
}
