#!/usr/bin/python3
"""Generate wrap_cases.json: strings and the quoted lines translate-toolkit's
quoteforpo renders for them. Deterministic (fixed seed).

Usage: /usr/bin/python3 testdata/gen_wrap_cases.py > testdata/wrap_cases.json
"""
import json
import random

from translate.storage.pypo import quoteforpo

rnd = random.Random(20240601)
atoms = [
    "word", "a", "longerword", " ", "  ", "\t", "\n", "\\", '"', "-", "--",
    "---", "/", "http://example.com/path/to/file.html", "x-y", "e-mail",
    "re-use", "1-2", ".", ",", "!", "?", "%s", "%(name)s", "${var}", "&amp;",
    "<b>", "</b>", "=", "'", "漢字", "日本語のテキスト", "ｆｕｌｌ", "한국어",
    "ä", "é", "ñ", "ß", "\u00a0", "\u3000", "_", "__init__", "a.b", "...",
    "\r", "\\n", "C:\\Windows\\Temp", "~/.cache/", "--option", "co-operate",
    "आपका", "हिन्दी", "Привет", "мир", "١٢٣", "😀", "\x1c",
]
cases = [
    "",
    "Short",
    "x" * 71,
    "x" * 72,
    "x" * 200,
    "漢" * 50,
    "Line one\nLine two\n",
    "Only trailing newline\n",
    "\n",
    "\n\n",
    "a\\nb",
    'He said "hello" and left \\ with a tab\there',
    "Visit https://www.bleachbit.org/help/shred-files-and-wipe-disks for details about this feature",
    "Delete the cache, including the thumbnails and the temporary files of the well-known applications",
]
for _ in range(600):
    n = rnd.randint(1, 60)
    cases.append("".join(rnd.choice(atoms) for _ in range(n)))
print(json.dumps([{"s": s, "lines": quoteforpo(s)} for s in cases], ensure_ascii=False, indent=0))
