package server

import (
	"fmt"
	"io"
	"slices"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/services/translation/formats"
)

// How an uploaded file is read. A file of a format that streams, larger
// than streamAbove, is read in pieces of about streamPiece bytes each time
// its units are needed, by a method that goes through them in order; any
// other is read whole, which readWhole bounds (TMS_UPLOAD_WHOLE_MIB): a
// larger one is refused before it is read, as a parse takes up to 15
// times the file's size (XLIFF: 1 GB for 64 MiB).
const (
	streamAbove = 8 << 20
	readWhole   = 16 << 20
)

// streamedMethods are the methods that only go through the units in order.
var streamedMethods = []string{"translate", "approve", "suggest", "fuzzy", "add"}

// read readies the file: up.stream when it is to be streamed, else up.file
// parsed whole (up.data its bytes), its header checked.
func (up *upload) read(limits UploadLimits) error {
	st, ok := up.format.(formats.Streamer)
	if ok && st.Streams() && up.content.size > limits.streamAbove() && slices.Contains(streamedMethods, up.method) {
		up.stream = st
		return nil
	}
	if whole := limits.readWhole(); up.content.size > whole {
		return errs.Invalid("file", "max_size", fmt.Sprintf("A %s above %d MiB cannot be uploaded with method %q: it would be read whole. Upload it in parts.",
			up.format.Name(), whole>>20, up.method))
	}
	rc, err := up.content.open()
	if err != nil {
		return err
	}
	defer func() { _ = rc.Close() }()
	data, err := io.ReadAll(rc)
	if err != nil {
		return err
	}
	up.data = data
	if up.file, err = up.format.Parse(formats.TrimBOM(data), up.language()); err != nil {
		return errs.Invalid("file", "invalid", "Could not parse uploaded file: "+err.Error())
	}
	up.counts[3] = int64(len(up.file.Units()))
	return up.checkHeader(up.file)
}

func (up *upload) language() formats.Language {
	return formats.Language{Code: fileLanguageCode(up.comp, up.t)}
}

// checkHeader refuses a file whose plural does not match the translation's.
func (up *upload) checkHeader(f formats.File) error {
	n, formula, ok := formats.PluralForms(f)
	if ok && !up.t.IsSource && !samePlural(up.t, n, formula) {
		return errs.Invalid("file", "invalid", "Plural forms in the uploaded file do not match the translation.")
	}
	return nil
}

// each calls fn with every unit of the file, in order: from up.file, or
// streamed from the content (its header checked on the first piece). An
// error of fn stops the reading and is returned as it is; a file that does
// not parse is the upload's error.
func (up *upload) each(fn func(*formats.Unit) error) error {
	if up.stream == nil {
		for _, u := range up.file.Units() {
			if err := fn(u); err != nil {
				return err
			}
		}
		return nil
	}
	rc, err := up.content.open()
	if err != nil {
		return err
	}
	defer func() { _ = rc.Close() }()
	var n int64
	var fnErr error
	pieces := 0
	err = formats.ReadStream(up.stream, rc, up.language(), func(f formats.File) error {
		if pieces++; pieces == 1 {
			if fnErr = up.checkHeader(f); fnErr != nil {
				return fnErr
			}
		}
		for _, u := range f.Units() {
			n++
			if fnErr = fn(u); fnErr != nil {
				return fnErr
			}
		}
		return nil
	})
	switch {
	case fnErr != nil:
		return fnErr
	case err != nil:
		return errs.Invalid("file", "invalid", "Could not parse uploaded file: "+err.Error())
	}
	up.counts[3] = n
	return nil
}
