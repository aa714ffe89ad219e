package po

import (
	"encoding/binary"
	"slices"
	"strings"
)

// moEntry is one original/translation pair as stored in a .mo file.
type moEntry struct{ id, str string }

// MO returns the file as a GNU .mo catalogue (little-endian, revision 0, no
// hash table): the header and every translated, non-fuzzy, non-obsolete
// entry, sorted by original string. Context is joined to the msgid with
// "\x04" and plural forms are separated by NUL, as msgfmt does.
func (f *File) MO() []byte {
	var entries []moEntry
	if h := f.Header(); h != nil && !h.Fuzzy() && h.Translated() {
		entries = append(entries, moEntry{"", h.Msgstr[0]})
	}
	for _, e := range f.Entries() {
		if e.Fuzzy() || !e.Translated() || e.Msgid == "" {
			continue
		}
		id := e.Msgid
		if e.HasPlural {
			id += "\x00" + e.MsgidPlural
		}
		if e.HasContext {
			id = e.Context + "\x04" + id
		}
		entries = append(entries, moEntry{id, strings.Join(e.Msgstr, "\x00")})
	}
	// msgfmt sorts by the original string's bytes.
	slices.SortStableFunc(entries, func(a, b moEntry) int { return strings.Compare(a.id, b.id) })
	entries = slices.CompactFunc(entries, func(a, b moEntry) bool { return a.id == b.id })
	return encodeMO(entries)
}

func encodeMO(entries []moEntry) []byte {
	const headerSize = 28
	n := uint32(len(entries))
	idTable := uint32(headerSize)
	strTable := idTable + 8*n
	data := strTable + 8*n
	out := binary.LittleEndian.AppendUint32(nil, 0x950412de)
	for _, v := range []uint32{0, n, idTable, strTable, 0, data} {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	var blob []byte
	tables := make([]byte, 0, 16*len(entries))
	strOffsets := make([]byte, 0, 8*len(entries))
	for _, e := range entries {
		tables = binary.LittleEndian.AppendUint32(tables, uint32(len(e.id)))
		tables = binary.LittleEndian.AppendUint32(tables, data+uint32(len(blob)))
		blob = append(append(blob, e.id...), 0)
	}
	for _, e := range entries {
		strOffsets = binary.LittleEndian.AppendUint32(strOffsets, uint32(len(e.str)))
		strOffsets = binary.LittleEndian.AppendUint32(strOffsets, data+uint32(len(blob)))
		blob = append(append(blob, e.str...), 0)
	}
	out = append(out, tables...)
	out = append(out, strOffsets...)
	return append(out, blob...)
}
