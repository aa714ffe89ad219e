package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
)

// uploadResult is the timed upload of a whole translation file.
type uploadResult struct {
	strings  int
	accepted int
	elapsed  time.Duration
}

// uploadTranslation uploads a file of every string of the first language
// with other translations (method translate, conflicts replace-translated)
// through the REST API, as `wlc upload` sends it, and times the answer.
func uploadTranslation(c config, s *server) (uploadResult, error) {
	g := bench.Generate(c.strings, uint64(c.strings))
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("method", "translate")
	_ = w.WriteField("conflicts", "replace-translated")
	part, err := w.CreateFormFile("file", languages[0]+".po")
	if err != nil {
		return uploadResult{}, err
	}
	if _, err = part.Write(g.PO(languages[0], 1, 100)); err != nil {
		return uploadResult{}, err
	}
	if err = w.Close(); err != nil {
		return uploadResult{}, err
	}
	req, err := http.NewRequest("POST", s.base+"/api/translations/bench/floor/"+languages[0]+"/file/", &body)
	if err != nil {
		return uploadResult{}, err
	}
	req.Header.Set("Authorization", "Token "+adminToken)
	req.Header.Set("Content-Type", w.FormDataContentType())
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return uploadResult{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(resp.Body)
	elapsed := time.Since(start)
	if err != nil {
		return uploadResult{}, err
	}
	var r struct {
		Accepted int `json:"accepted"`
		Total    int `json:"total"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(out, &r) != nil || r.Accepted == 0 {
		return uploadResult{}, fmt.Errorf("upload: %d %.300s", resp.StatusCode, out)
	}
	return uploadResult{strings: c.strings, accepted: r.Accepted, elapsed: elapsed}, nil
}

func writeUploadRow(b *strings.Builder, up uploadResult) {
	fmt.Fprintf(b, "Upload through `tms serve` of a file of all %d strings of one translation, other texts "+
		"(method translate, conflicts replace-translated): %.1f s, %d strings taken, %.0f strings/s.\n\n",
		up.strings, up.elapsed.Seconds(), up.accepted, float64(up.accepted)/up.elapsed.Seconds())
}
