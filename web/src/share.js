// Shareable links: the inputs live in the URL fragment, which browsers never send
// to a server. Format: #s=<base64url of deflate-raw(JSON {v, t, o, p})>, or #j=<base64url
// of the JSON> where the browser has no CompressionStream.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function encodeState(state) {
  const bytes = encoder.encode(JSON.stringify({ v: 1, t: state.type, o: state.object, p: state.patch }));
  if (typeof CompressionStream === "function") {
    return "s=" + toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
  }
  return "j=" + toBase64Url(bytes);
}

// Returns {type, object, patch} or null when the fragment holds no (valid) state.
export async function decodeState(fragment) {
  const hash = fragment.replace(/^#/, "");
  try {
    let bytes;
    if (hash.startsWith("s=")) {
      bytes = await pipe(fromBase64Url(hash.slice(2)), new DecompressionStream("deflate-raw"));
    } else if (hash.startsWith("j=")) {
      bytes = fromBase64Url(hash.slice(2));
    } else {
      return null;
    }
    const data = JSON.parse(decoder.decode(bytes));
    if (typeof data.o !== "string" || typeof data.p !== "string") return null;
    return { type: data.t, object: data.o, patch: data.p };
  } catch {
    return null;
  }
}
