// Shareable links: the inputs live in the URL fragment, which browsers never send to a
// server. Format: #s=<base64url of deflate-raw(JSON {v, t, o, p, f})>, or #j=<base64url
// of the JSON> where the browser has no CompressionStream. Another mode than patch adds
// m (its id) and l (its third text): the apply mode keeps live in o, manifest in p and
// the last applied configuration in l; the lint mode keeps its files in fs, a list of
// [path, text] pairs (o and p are then empty); the apply mode's server-side settings are
// x: {side, manager, force, crd}.

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const VERSION = 1;

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export function isShareFragment(fragment) {
  return /^#?[sj]=/.test(fragment);
}

export async function encodeState({ type, format, object, patch, mode, last, files, extra }) {
  const data = { v: VERSION, t: type, f: format, o: object ?? "", p: patch ?? "" };
  if (mode && mode !== "patch") Object.assign(data, { m: mode, l: last ?? "" });
  if (extra && typeof extra === "object") data.x = extra;
  if (mode === "lint") data.fs = (files ?? []).map(({ path, text }) => [path, text]);
  const bytes = encoder.encode(JSON.stringify(data));
  if (typeof CompressionStream === "function") {
    return "s=" + toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
  }
  return "j=" + toBase64Url(bytes);
}

const CUT = "This link is incomplete: its data ends early, most likely because the link was cut "
  + "off when it was copied or sent. Ask for the whole link.";

// {state: {type, format, object, patch}}, {error: "what is wrong"}, or null when the
// fragment is not a shared link at all (such as #result).
export async function decodeState(fragment) {
  const hash = fragment.replace(/^#/, "");
  if (!isShareFragment(hash)) return null;
  let bytes;
  try {
    bytes = fromBase64Url(hash.slice(2));
  } catch {
    return { error: "This link is damaged: its data holds characters a link of this page never has." };
  }
  let text;
  try {
    if (hash.startsWith("s=")) bytes = await pipe(bytes, new DecompressionStream("deflate-raw"));
    text = decoder.decode(bytes);
  } catch {
    return { error: CUT };
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: CUT };
  }
  if (!data || typeof data !== "object") return { error: CUT };
  if (data.v !== VERSION) {
    return { error: `This link was made by another version of this page (format ${data.v}); it cannot be read here.` };
  }
  if (typeof data.o !== "string" || typeof data.p !== "string") {
    return { error: "This link is damaged: it does not hold both an object and a patch." };
  }
  const mode = typeof data.m === "string" ? data.m : "patch";
  if (mode === "lint" && !isFileList(data.fs)) {
    return { error: "This link is damaged: it does not hold the lint mode's files." };
  }
  return { state: { type: data.t, format: data.f, object: data.o, patch: data.p, mode,
    last: typeof data.l === "string" ? data.l : "",
    extra: data.x && typeof data.x === "object" && !Array.isArray(data.x) ? data.x : undefined,
    files: mode === "lint" ? data.fs.map(([path, text]) => ({ path, text })) : undefined } };
}

function isFileList(files) {
  return Array.isArray(files) && files.every((file) => Array.isArray(file) && file.length === 2
    && typeof file[0] === "string" && typeof file[1] === "string");
}
