package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/tm"
)

// TMX import bounds: the largest file taken (1M segments of ordinary
// sentences is some 300 MB), and the entries written per transaction.
const (
	maxTMXBytes     = 2 << 30
	tmxBatchEntries = 25000
)

// ImportMemory spools a TMX upload to a temporary file, checks that it
// starts as a TMX file should, and reads it into the project's memory as
// a task, in batches: memory stays flat whatever the file's size.
func (m *MemoryServer) ImportMemory(stream translationv1.MemoryService_ImportMemoryServer) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		return errs.Invalid("file", "required", "No file was submitted.")
	}
	project, origin := first.GetProjectSlug(), tmxOrigin(first.GetFileName())
	if err = m.s.mustSee(ctx, project); err != nil {
		return err
	}
	if err = m.requireProject(ctx, "memory.edit", project, errNoPermission); err != nil {
		return err
	}
	f, err := spoolUpload(stream, first.GetChunk())
	if err != nil {
		return err
	}
	if err = checkTMX(f.Name()); err != nil {
		removeSpool(f)
		return err
	}
	task, err := m.s.cfg.Store.CreateProjectTask(ctx, store.TaskMemoryImport, uuid.NewString(), project, m.s.holder())
	if err != nil {
		removeSpool(f)
		return err
	}
	tctx, stop := m.s.taskContext(m.s.ctx, task.ID) //nolint:contextcheck // the task outlives the call
	m.s.wg.Add(1)
	go func() {
		defer m.s.wg.Done()
		defer stop()
		defer removeSpool(f)
		m.runTMXImport(tctx, task.ID, f, project, origin)
	}()
	return stream.SendAndClose(&translationv1.ImportMemoryResponse{Task: taskProto(task)})
}

// tmxOrigin is the origin of an imported file's entries: its base name,
// lower-cased, as the reference names them.
func tmxOrigin(name string) string {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	if base == "." || base == "/" || base == "" {
		return "upload.tmx"
	}
	return base
}

// spoolUpload writes the stream's chunks to a temporary file.
func spoolUpload(stream translationv1.MemoryService_ImportMemoryServer, chunk []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "tms-tmx-*")
	if err != nil {
		return nil, err
	}
	var size int64
	for {
		size += int64(len(chunk))
		if size > maxTMXBytes {
			removeSpool(f)
			return nil, errs.Invalid("file", "max_size", fmt.Sprintf("The file is larger than %d MiB.", maxTMXBytes>>20))
		}
		if _, err = f.Write(chunk); err != nil {
			removeSpool(f)
			return nil, err
		}
		msg, rerr := stream.Recv()
		if errors.Is(rerr, io.EOF) {
			return f, nil
		}
		if rerr != nil {
			removeSpool(f)
			return nil, rerr
		}
		chunk = msg.GetChunk()
	}
}

func removeSpool(f *os.File) {
	_ = f.Close()
	_ = os.Remove(f.Name())
}

// checkTMX reads the file's first pair: a file that is not TMX, or holds
// no pair, is refused before a task starts.
func checkTMX(name string) error {
	f, err := os.Open(name) //nolint:gosec // G304: our own temporary file
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	_, err = tm.NewReader(f).Next()
	switch {
	case errors.Is(err, io.EOF):
		return errs.Invalid("file", "invalid", "No valid entries found in the uploaded file!")
	case errors.Is(err, tm.ErrNoHeader), errors.Is(err, tm.ErrNoSourceLang):
		return errs.Invalid("file", "invalid", err.Error())
	case err != nil:
		return errs.Invalid("file", "invalid", "Could not parse TMX file: "+err.Error())
	}
	return nil
}

// countingReader counts the bytes read through it, for progress (read
// by the writer while the parser reads the file).
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// runTMXImport is the body of a memory import task.
func (m *MemoryServer) runTMXImport(ctx context.Context, taskID string, f *os.File, project, origin string) {
	ctx = policy.System(ctx)
	start := time.Now()
	read, added, failure := int64(0), int64(0), ""
	st, err := f.Stat()
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err == nil {
		cr := &countingReader{r: f}
		read, added, err = m.importPairs(ctx, taskID, tm.NewReader(cr), project, origin, func() int {
			return int(100 * cr.n.Load() / max(st.Size(), 1))
		})
	}
	done := context.WithoutCancel(ctx)
	switch {
	case taskCancelled(ctx):
		failure = cancelledTask
	case err != nil:
		failure = "Could not parse TMX file: " + err.Error()
	}
	m.s.taskProgress(done, taskID, -1, fmt.Sprintf("[%.2fs] %d entries read, %d added", time.Since(start).Seconds(), read, added))
	if ferr := m.s.cfg.Store.FinishTask(done, taskID, failure); ferr != nil {
		m.s.cfg.Log.Error("finish task", "task", taskID, "err", ferr)
	}
}

// importPairs reads pairs into the memory in batches, each its own
// transaction: what was added stays when a later part of the file fails.
// The file is parsed while the previous batch is written, so the two
// cores share the work; two batches at most are held.
func (m *MemoryServer) importPairs(ctx context.Context, taskID string, r *tm.Reader, project, origin string, pct func() int) (read, added int64, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []store.MemoryEntry)
	parsed := make(chan error, 1)
	go func() {
		defer close(batches)
		n, perr := readBatches(ctx, r, project, origin, batches)
		read = n
		parsed <- perr
	}()
	for batch := range batches {
		n, werr := m.s.cfg.Store.Remember(ctx, batch)
		added += n
		m.s.taskProgress(ctx, taskID, min(pct(), 99), "")
		if werr != nil {
			cancel()
			for range batches { // let the reader see the cancellation and stop
			}
			return read, added, werr
		}
	}
	if err = <-parsed; err == nil {
		err = m.s.cfg.Store.AnalyzeMemory(ctx)
	}
	return read, added, err
}

// readBatches parses pairs into batches of tmxBatchEntries and sends them
// to out until the file ends or ctx is done; it answers the pairs read.
func readBatches(ctx context.Context, r *tm.Reader, project, origin string, out chan<- []store.MemoryEntry) (int64, error) {
	var read int64
	batch := make([]store.MemoryEntry, 0, tmxBatchEntries)
	send := func() error {
		select {
		case out <- batch:
			batch = make([]store.MemoryEntry, 0, tmxBatchEntries)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		if ctx.Err() != nil {
			return read, ctx.Err()
		}
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			if len(batch) == 0 {
				return read, nil
			}
			return read, send()
		}
		if err != nil {
			return read, err
		}
		read++
		batch = append(batch, store.MemoryEntry{ProjectSlug: project, SourceLanguage: p.SourceLanguage,
			TargetLanguage: p.TargetLanguage, Source: p.Source, Target: p.Target, Context: p.Context,
			Origin: origin, FromFile: true})
		if len(batch) == tmxBatchEntries {
			if err := send(); err != nil {
				return read, err
			}
		}
	}
}

// exportChunk is the size of the pieces ExportMemory sends.
const exportChunk = 64 << 10

// chunkSender sends what is written to it as ExportMemory pieces.
type chunkSender struct {
	stream translationv1.MemoryService_ExportMemoryServer
}

func (c chunkSender) Write(p []byte) (int, error) {
	for start := 0; start < len(p); start += exportChunk {
		piece := p[start:min(start+exportChunk, len(p))]
		if err := c.stream.Send(&translationv1.ExportMemoryResponse{Chunk: piece}); err != nil {
			return start, err
		}
	}
	return len(p), nil
}

// ExportMemory writes a project's memory as TMX, a page of entries at a
// time.
func (m *MemoryServer) ExportMemory(req *translationv1.ExportMemoryRequest, stream translationv1.MemoryService_ExportMemoryServer) error {
	ctx := stream.Context()
	if err := m.s.mustSee(ctx, req.GetProjectSlug()); err != nil {
		return err
	}
	f := store.MemoryFilter{Project: req.GetProjectSlug(), SourceLanguage: req.GetSourceLanguage(), TargetLanguage: req.GetTargetLanguage()}
	w := tm.NewWriter(chunkSender{stream}, req.GetSourceLanguage(), "tms")
	var after int64
	for {
		page, err := m.s.cfg.Store.ScanMemory(ctx, f, after, 1000)
		if err != nil {
			return err
		}
		for _, e := range page {
			if err = w.Write(tm.Pair{SourceLanguage: e.SourceLanguage, TargetLanguage: e.TargetLanguage,
				Source: e.Source, Target: e.Target, Context: e.Context}); err != nil {
				return err
			}
		}
		if len(page) < 1000 {
			return w.Close()
		}
		after = page[len(page)-1].ID
	}
}
