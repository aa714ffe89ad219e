package rest

import (
	"net/http"
	"regexp"
	"strings"
	"time"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// autotranslateIn is the reference's AutoForm, as its API takes it (its
// own document names the Translation schema instead).
type autotranslateIn struct {
	Mode       string   `json:"mode" doc:"translate, fuzzy (needing editing) or suggest."`
	Q          string   `json:"q,omitempty" doc:"A search choosing the strings (state:empty, state:<translated, ...)."`
	FilterType string   `json:"filter_type,omitempty" doc:"The older form of q: all, nottranslated, todo, fuzzy or check:<id>."`
	AutoSource string   `json:"auto_source" doc:"others (other components' translations) or mt (machine translation)."`
	Component  string   `json:"component,omitempty" doc:"others: the component to take from (id or project/component); every other component of the project by default."`
	Engines    []string `json:"engines,omitempty" doc:"mt: the engines' ids (weblate-translation-memory, deepl, libretranslate, ...)."`
	Threshold  int      `json:"threshold" doc:"The lowest quality taken, 1 to 100."`
}

// autotranslateJSON is the reference's answer, with the task's URL while
// it still runs (this service's own).
type autotranslateJSON struct {
	Details string `json:"details"`
	TaskURL string `json:"task_url,omitempty"`
}

// autotranslateWait is how long the request waits for the task: the
// reference answers when the work is done; past this, 202 and the task.
const autotranslateWait = 60 * time.Second

// autotranslate is POST /api/translations/<p>/<c>/<l>/autotranslate/.
func (g *gateway) autotranslate(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	if err = c.requireUser(); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	req := &translationv1.AutoTranslateRequest{ComponentId: comp.GetId(), LanguageCode: t.GetLanguageCode(), Actor: c.actor()}
	req.Mode, _ = b.str("mode")
	req.Q, _ = b.str("q")
	req.FilterType, _ = b.str("filter_type")
	req.AutoSource, _ = b.str("auto_source")
	req.Component, _ = b.str("component")
	req.Engines, _ = b.strList("engines")
	req.Threshold, _ = b.int32("threshold")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.AutoTranslate(c.ctx, req)
	if err != nil {
		return err
	}
	task, err := c.waitTask(resp.GetTask(), autotranslateWait)
	if err != nil {
		return err
	}
	if !task.GetCompleted() {
		return c.write(http.StatusAccepted, autotranslateJSON{Details: "Automatic translation is running.",
			TaskURL: c.urls.API("tasks", task.GetId())})
	}
	if task.GetError() != "" {
		return c.ok(autotranslateJSON{Details: task.GetError()})
	}
	return c.ok(autotranslateJSON{Details: lastLogLine(task.GetLog())})
}

// waitTask polls a task until it completes, at most for wait (and while
// the client waits).
func (c *call) waitTask(task *translationv1.Task, wait time.Duration) (*translationv1.Task, error) {
	deadline := time.Now().Add(wait)
	for delay := 20 * time.Millisecond; !task.GetCompleted() && time.Now().Before(deadline); delay = min(2*delay, 500*time.Millisecond) {
		select {
		case <-c.ctx.Done():
			return nil, c.ctx.Err()
		case <-time.After(delay):
		}
		resp, err := c.g.cfg.Translation.GetTask(c.ctx, &translationv1.GetTaskRequest{Id: task.GetId()})
		if err != nil {
			return nil, err
		}
		task = resp.GetTask()
	}
	return task, nil
}

// logTime is the elapsed time a task's log lines start with.
var logTime = regexp.MustCompile(`^\[[0-9.]+s\] `)

// lastLogLine is a task log's last line without its time.
func lastLogLine(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	return logTime.ReplaceAllString(lines[len(lines)-1], "")
}

// machineryJSON answers GET /api/units/<id>/machinery/: the proposals of
// every engine configured for the unit's project, best first, and the
// engines that could not answer.
type machineryJSON struct {
	Results []machinerySuggestionJSON `json:"results"`
	Errors  []machineryErrorJSON      `json:"errors"`
}

type machinerySuggestionJSON struct {
	Service string `json:"service"`
	Name    string `json:"service_name"`
	Text    string `json:"text"`
	Quality int32  `json:"quality"`
	Source  string `json:"source"`
	Origin  string `json:"origin"`
}

type machineryErrorJSON struct {
	Service string `json:"service"`
	Detail  string `json:"detail"`
}

func (g *gateway) unitMachinery(c *call) error {
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListMachinery(c.ctx, &translationv1.ListMachineryRequest{UnitId: n})
	if err != nil {
		return err
	}
	out := machineryJSON{Results: []machinerySuggestionJSON{}, Errors: []machineryErrorJSON{}}
	for _, s := range resp.GetSuggestions() {
		out.Results = append(out.Results, machinerySuggestionJSON{Service: s.GetService(), Name: s.GetServiceName(),
			Text: s.GetText(), Quality: s.GetQuality(), Source: s.GetSource(), Origin: s.GetOrigin()})
	}
	for _, e := range resp.GetErrors() {
		out.Errors = append(out.Errors, machineryErrorJSON{Service: e.GetService(), Detail: e.GetDetail()})
	}
	return c.ok(out)
}
