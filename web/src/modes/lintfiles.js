// Reading the reader's files in this tab with the File API: a folder chosen with
// <input webkitdirectory>, files chosen with <input multiple>, or a folder or files
// dropped on the page. Nothing is uploaded: the texts go to the engine worker only.
//
// Each reader resolves to {files: [{path, text}], skipped: [{path, reason}]} (and for a
// drop, folder: whether it was one folder) with paths
// relative to the folder (a single dropped or chosen folder is the root), sorted.
// Skipped: "folder" (version control, dependencies, caches: as cfgpatch lint walks),
// "large" (over MAX_BYTES), "binary" (not UTF-8 text).

const SKIP_DIRS = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__",
  ".tox", ".mypy_cache", ".pytest_cache"]);
export const MAX_BYTES = 1_000_000;

function collector() {
  const out = { files: [], skipped: [] };
  const skippedFolders = new Set();
  return {
    out,
    // The first skipped folder on the path, or null.
    skippedFolder(path) {
      const parts = path.split("/").slice(0, -1);
      const at = parts.findIndex((part) => SKIP_DIRS.has(part));
      if (at < 0) return null;
      const folder = parts.slice(0, at + 1).join("/");
      if (!skippedFolders.has(folder)) {
        skippedFolders.add(folder);
        out.skipped.push({ path: folder, reason: "folder" });
      }
      return folder;
    },
    async add(file, path) {
      if (this.skippedFolder(path)) return;
      if (file.size > MAX_BYTES) {
        out.skipped.push({ path, reason: "large" });
        return;
      }
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
        if (text.includes("\0")) throw new Error("binary");
        out.files.push({ path, text });
      } catch {
        out.skipped.push({ path, reason: "binary" });
      }
    },
    done() {
      out.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return out;
    },
  };
}

// A FileList from an <input type="file">: with webkitdirectory each file has the
// chosen folder's name first in webkitRelativePath, which is dropped.
export async function readFileList(list) {
  const read = collector();
  for (const file of [...list]) {
    const relative = file.webkitRelativePath || file.name;
    const path = file.webkitRelativePath ? relative.split("/").slice(1).join("/") : relative;
    await read.add(file, path);
  }
  return read.done();
}

const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

// All the entries of a folder (readEntries gives them in batches until an empty one).
async function entriesOf(folder) {
  const reader = folder.createReader();
  const all = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry, path, read) {
  if (entry.isFile) {
    await read.add(await fileOf(entry), path);
  } else if (entry.isDirectory) {
    if (read.skippedFolder(`${path}/x`)) return;
    for (const child of await entriesOf(entry)) {
      await walk(child, path ? `${path}/${child.name}` : child.name, read);
    }
  }
}

// The entries of a drop event, taken at once: the DataTransfer is emptied after the
// event handler returns. Returns a function that reads them.
export function droppedEntries(dataTransfer) {
  const entries = [...(dataTransfer.items || [])]
    .filter((item) => item.kind === "file")
    .map((item) => item.webkitGetAsEntry?.())
    .filter(Boolean);
  const plain = [...(dataTransfer.files || [])];
  return async () => {
    const read = collector();
    if (!entries.length) {
      for (const file of plain) await read.add(file, file.name);
      return read.done();
    }
    const single = entries.length === 1 && entries[0].isDirectory;
    for (const entry of entries) await walk(entry, single ? "" : entry.name, read);
    return { ...read.done(), folder: single };
  };
}
