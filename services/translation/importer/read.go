package importer

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
)

// parse reads one file of the component: streamed in pieces where its
// format allows (PO, plain and nested JSON), else parsed whole; either way
// only its units are kept, without their file's handles.
func (r *reader) parse(m filemask.Match) parsed {
	p := parsed{match: m}
	full := filepath.Join(r.dir, filepath.FromSlash(m.Path))
	if _, ok := filemask.Resolve(r.realRoot, full); !ok {
		p.err = fmt.Errorf("%s: file not found in the repository", m.Path)
		return p
	}
	if p.err = r.read(full, &p); p.err != nil {
		p.err = fmt.Errorf("%s: %w", m.Path, p.err)
	}
	return p
}

// read fills p from the file at full, hashing its content as it goes.
func (r *reader) read(full string, p *parsed) error {
	fh, err := os.Open(full) //nolint:gosec // G304: filemask.Resolve kept it inside the working copy
	if err != nil {
		return err
	}
	defer func() { _ = fh.Close() }()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	h := plumbing.NewHasher(plumbing.BlobObject, st.Size())
	in := io.TeeReader(fh, h)
	lng := formats.Language{Code: p.match.Code}
	first := true
	take := func(f formats.File) error {
		if first {
			first = false
			p.plurals, p.formula, _ = formats.PluralForms(f)
			_, p.recordsApproval = f.(formats.ApprovalFile)
			p.recordsFuzzy = f.RecordsFuzzy()
		}
		for _, u := range f.Units() {
			c := *u
			c.Ref = nil // the file's handle would keep its whole parse alive
			p.units = append(p.units, &c)
		}
		return nil
	}
	if s, ok := r.format.(formats.Streamer); ok && s.Streams() {
		err = formats.ReadStream(s, in, lng, take)
	} else {
		var data []byte
		if data, err = io.ReadAll(in); err == nil {
			var f formats.File
			if f, err = r.format.Parse(data, lng); err == nil {
				err = take(f)
			}
		}
	}
	if err != nil {
		return err
	}
	if _, err = io.Copy(io.Discard, in); err != nil { // the rest, for the hash
		return err
	}
	p.revision = h.Sum().String()
	return nil
}
