package server

import (
	"bufio"
	"encoding/gob"
	"errors"
	"io"
	"os"
)

// planMemory is how many operations a plan holds in memory before it
// moves them to a temporary file.
const planMemory = 4096

// plan is the list of operations an upload decided while reading its file
// (edits, suggestions, new strings): applied afterwards, in batches, in
// one transaction. Past planMemory operations it lives in a temporary file,
// so that a file of any size costs a batch of memory, and the file is read
// before the transaction starts, not while it holds the database.
type plan[T any] struct {
	mem []T
	f   *os.File
	w   *bufio.Writer
	enc *gob.Encoder
	n   int
}

func (p *plan[T]) add(v T) error {
	p.n++
	if p.f == nil && len(p.mem) < planMemory {
		p.mem = append(p.mem, v)
		return nil
	}
	if p.f == nil {
		f, err := os.CreateTemp("", "tms-upload-plan-*")
		if err != nil {
			return err
		}
		p.f, p.w = f, bufio.NewWriterSize(f, 1<<16)
		p.enc = gob.NewEncoder(p.w)
		for _, m := range p.mem {
			if err = p.enc.Encode(m); err != nil {
				return err
			}
		}
		p.mem = nil
	}
	return p.enc.Encode(v)
}

// len is the number of operations planned.
func (p *plan[T]) len() int { return p.n }

// batches calls fn with the operations in order, at most size at a time.
func (p *plan[T]) batches(size int, fn func([]T) error) error {
	if p.f == nil {
		for start := 0; start < len(p.mem); start += size {
			if err := fn(p.mem[start:min(start+size, len(p.mem))]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := p.w.Flush(); err != nil {
		return err
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dec := gob.NewDecoder(bufio.NewReaderSize(p.f, 1<<16))
	batch := make([]T, 0, size)
	for {
		var v T
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if batch = append(batch, v); len(batch) == size {
			if err = fn(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if len(batch) == 0 {
		return nil
	}
	return fn(batch)
}

// close removes the temporary file, if any.
func (p *plan[T]) close() {
	if p.f != nil {
		_ = p.f.Close()
		_ = os.Remove(p.f.Name())
	}
}
