package tm

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Pair is a translation unit of a TMX file in one target language: the
// source text in the header's source language and its translation.
type Pair struct {
	SourceLanguage, TargetLanguage string
	Source, Target                 string
	// Context is the unit's tuid, when it has one.
	Context string
}

// Reader reads the pairs of a TMX 1.4b file one unit at a time, so that a
// file of any size is read in constant memory.
type Reader struct {
	dec     *xml.Decoder
	srcLang string
	pending []Pair
}

// Errors of a TMX file the reference words the same way.
var (
	ErrNoHeader     = errors.New("Header missing in the TMX file!")              //nolint:staticcheck,revive // the reference's message
	ErrNoSourceLang = errors.New("Source language not defined in the TMX file!") //nolint:staticcheck,revive // the reference's message
)

// NewReader starts reading a TMX file.
func NewReader(r io.Reader) *Reader {
	dec := xml.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.Strict = true
	return &Reader{dec: dec}
}

// Next answers the next pair, io.EOF after the last. A unit without its
// source language or without a translation gives no pair; a unit with
// several target languages gives a pair each.
func (r *Reader) Next() (Pair, error) {
	for len(r.pending) == 0 {
		tok, err := r.dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) && r.srcLang == "" {
				return Pair{}, ErrNoHeader
			}
			return Pair{}, err
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch start.Name.Local {
		case "header":
			r.srcLang = NormalizeLanguage(attr(start, "srclang"))
			if r.srcLang == "" || r.srcLang == "*all*" {
				return Pair{}, ErrNoSourceLang
			}
		case "tu":
			if r.srcLang == "" {
				return Pair{}, ErrNoHeader
			}
			if err = r.unit(start); err != nil {
				return Pair{}, err
			}
		}
	}
	p := r.pending[0]
	r.pending = r.pending[1:]
	return p, nil
}

// unit reads a <tu> into pending pairs.
func (r *Reader) unit(start xml.StartElement) error {
	tuid := attr(start, "tuid")
	var src string
	haveSrc := false
	type variant struct{ lang, text string }
	var targets []variant
	for {
		tok, err := r.dec.Token()
		if err != nil {
			return unexpectedEOF(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "tuv" {
				if err = r.dec.Skip(); err != nil {
					return err
				}
				continue
			}
			lang := NormalizeLanguage(langAttr(t))
			text, err := r.variantText()
			if err != nil {
				return err
			}
			if lang == r.srcLang && !haveSrc {
				src, haveSrc = text, true
			} else if lang != "" && lang != r.srcLang {
				targets = append(targets, variant{lang, text})
			}
		case xml.EndElement:
			if !haveSrc || src == "" {
				return nil
			}
			for _, v := range targets {
				if v.text != "" {
					r.pending = append(r.pending, Pair{SourceLanguage: r.srcLang, TargetLanguage: v.lang,
						Source: src, Target: v.text, Context: tuid})
				}
			}
			return nil
		}
	}
}

// variantText reads a <tuv>'s <seg>: its text, inline codes' content
// included, as the file writes it.
func (r *Reader) variantText() (string, error) {
	var b strings.Builder
	depth, inSeg := 1, false
	for depth > 0 {
		tok, err := r.dec.Token()
		if err != nil {
			return "", unexpectedEOF(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if t.Name.Local == "seg" {
				inSeg = true
			}
		case xml.EndElement:
			depth--
			if t.Name.Local == "seg" {
				inSeg = false
			}
		case xml.CharData:
			if inSeg {
				b.Write(t)
			}
		}
	}
	return b.String(), nil
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// langAttr is a <tuv>'s xml:lang (or TMX 1.1's lang).
func langAttr(e xml.StartElement) string {
	for _, a := range e.Attr {
		if a.Name.Local == "lang" {
			return a.Value
		}
	}
	return ""
}

// NormalizeLanguage writes a TMX language (BCP 47, "pt-BR") as the
// service codes languages ("pt_BR"): the language lower-case, a region
// upper-case, a script title-case.
func NormalizeLanguage(code string) string {
	parts := strings.FieldsFunc(strings.TrimSpace(code), func(r rune) bool { return r == '-' || r == '_' })
	for i, p := range parts {
		switch {
		case i == 0:
			parts[i] = strings.ToLower(p)
		case len(p) == 2 || len(p) == 3 && p[0] >= '0' && p[0] <= '9':
			parts[i] = strings.ToUpper(p)
		case len(p) == 4:
			parts[i] = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		}
	}
	return strings.Join(parts, "_")
}

// bcp47 writes a service language code as TMX wants it ("pt_BR" → "pt-BR").
func bcp47(code string) string { return strings.ReplaceAll(code, "_", "-") }

// Writer writes a TMX 1.4b file, one unit per pair.
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter starts a TMX file whose header names the source language
// (empty: "*all*", the pairs may differ).
func NewWriter(w io.Writer, sourceLanguage, tool string) *Writer {
	tw := &Writer{w: bufio.NewWriterSize(w, 64<<10)}
	src := "*all*"
	if sourceLanguage != "" {
		src = bcp47(sourceLanguage)
	}
	tw.printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tmx version=\"1.4\">\n")
	tw.printf("  <header creationtool=\"%s\" creationtoolversion=\"1\" segtype=\"sentence\" o-tmf=\"%s\" adminlang=\"en\" srclang=\"%s\" datatype=\"plaintext\"/>\n  <body>\n",
		escape(tool), escape(tool), escape(src))
	return tw
}

// Write adds a unit.
func (w *Writer) Write(p Pair) error {
	w.printf("    <tu")
	if p.Context != "" {
		w.printf(" tuid=\"%s\"", escape(p.Context))
	}
	w.printf(">\n      <tuv xml:lang=\"%s\"><seg>%s</seg></tuv>\n      <tuv xml:lang=\"%s\"><seg>%s</seg></tuv>\n    </tu>\n",
		escape(bcp47(p.SourceLanguage)), escape(p.Source), escape(bcp47(p.TargetLanguage)), escape(p.Target))
	return w.err
}

// Close ends the file and flushes it.
func (w *Writer) Close() error {
	w.printf("  </body>\n</tmx>\n")
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

func (w *Writer) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
