package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

const autoHeader = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"

// autoPOT holds the strings both components share; the library adds one.
const autoPOT = autoHeader + `
msgid "Open file"
msgstr ""

msgid "Save file"
msgstr ""

msgid "Quit"
msgstr ""

msgid "%d item"
msgid_plural "%d items"
msgstr[0] ""
msgstr[1] ""
`

var autoAppDE = strings.NewReplacer(
	"msgid \"Open file\"\nmsgstr \"\"", "msgid \"Open file\"\nmsgstr \"Datei öffnen\"",
	"msgid \"Save file\"\nmsgstr \"\"", "msgid \"Save file\"\nmsgstr \"Datei speichern\"",
	"msgid \"Quit\"\nmsgstr \"\"", "msgid \"Quit\"\nmsgstr \"Beenden\"",
	"msgstr[0] \"\"\nmsgstr[1] \"\"", "msgstr[0] \"%d Element\"\nmsgstr[1] \"%d Elemente\"",
	"charset=UTF-8\\n\"\n", "charset=UTF-8\\n\"\n\"Language: de\\n\"\n",
).Replace(autoPOT)

var autoLibPOT = autoPOT + "\nmsgid \"Close window\"\nmsgstr \"\"\n"

// TestAutoTranslateFromOtherComponent imports two components that share
// strings and fills the second from the first, as suggestions and then as
// translations: states, change records, statistics and the file pushed.
func TestAutoTranslateFromOtherComponent(t *testing.T) {
	libDE := strings.Replace(autoLibPOT, "charset=UTF-8\\n\"\n", "charset=UTF-8\\n\"\n\"Language: de\\n\"\n", 1)
	base, repo := startFormatComponent(t, map[string][]byte{"po/app.pot": []byte(autoPOT), "po/de.po": []byte(autoAppDE),
		"lib/lib.pot": []byte(autoLibPOT), "lib/de.po": []byte(libDE)},
		map[string]any{"filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"}, "de", 4)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Lib", "slug": "lib", "repo": repo,
		"filemask": "lib/*.po", "new_base": "lib/lib.pot", "file_format": "po", "allow_translation_propagation": false}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/lib/de/", nil)
		return status == 200 && tr["total"] == float64(5)
	})
	auto := base + "translations/demo/lib/de/autotranslate/"
	got := call(t, "POST", auto, map[string]any{"mode": "suggest", "q": "state:empty", "auto_source": "others", "threshold": 100}, 200)
	if got["details"] != "Automatic translation completed, 4 strings were updated." {
		t.Errorf("suggest: %v", got)
	}
	lib := call(t, "GET", base+"translations/demo/lib/de/statistics/", nil, 200)
	if lib["translated"] != 0.0 || lib["suggestions"] != 4.0 {
		t.Errorf("after suggest: translated %v, suggestions %v", lib["translated"], lib["suggestions"])
	}
	got = call(t, "POST", auto, map[string]any{"mode": "translate", "filter_type": "todo", "auto_source": "others",
		"component": "demo/app", "threshold": 100}, 200)
	if got["details"] != "Automatic translation completed, 4 strings were updated." {
		t.Errorf("translate: %v", got)
	}
	lib = call(t, "GET", base+"translations/demo/lib/de/", nil, 200)
	if lib["translated"] != 4.0 || lib["total"] != 5.0 {
		t.Errorf("after translate: %v of %v translated", lib["translated"], lib["total"])
	}
	stacktest.Eventually(t, 30*time.Second, func() bool {
		return call(t, "GET", base+"translations/demo/lib/de/changes/?action=6", nil, 200)["count"] == 4.0
	})
	expectOperation(t, base, "lib", "commit")
	expectOperation(t, base, "lib", "push")
	file, _, _ := origin.Read(repo, "lib/de.po")
	for _, want := range []string{"msgid \"Open file\"\nmsgstr \"Datei öffnen\"", "msgstr[1] \"%d Elemente\"", "msgid \"Close window\"\nmsgstr \"\""} {
		if !strings.Contains(file, want) {
			t.Errorf("lib/de.po lacks %q:\n%s", want, file)
		}
	}
	// Refusals answer the reference's form errors.
	for name, body := range map[string]map[string]any{
		"no threshold":   {"mode": "translate", "q": "state:empty", "auto_source": "others"},
		"bad mode":       {"mode": "approve-all", "q": "state:empty", "auto_source": "others", "threshold": 80},
		"bad query":      {"mode": "translate", "q": "state:<<", "auto_source": "others", "threshold": 80},
		"unknown engine": {"mode": "translate", "q": "state:empty", "auto_source": "mt", "engines": []string{"babelfish"}, "threshold": 80},
		"no component":   {"mode": "translate", "q": "state:empty", "auto_source": "others", "component": "demo/nope", "threshold": 80},
	} {
		if out, status := fetch(t, "POST", auto, body); status != 400 {
			t.Errorf("%s: %d %v", name, status, out)
		}
	}
}

// engineFake is a machine translation engine's fake server: it records
// each request and translates by prefixing the target language.
type engineFake struct {
	mu       sync.Mutex
	requests []engineRequest
}

type engineRequest struct {
	path   string
	header http.Header
	body   map[string]any
}

func (f *engineFake) record(r *http.Request) map[string]any {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, engineRequest{path: r.URL.Path, header: r.Header.Clone(), body: body})
	return body
}

func (f *engineFake) last(t *testing.T) engineRequest {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("the engine received no request")
	}
	return f.requests[len(f.requests)-1]
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// mtFakes serves LibreTranslate, DeepL and an OpenAI-compatible endpoint,
// each in its own format.
func mtFakes(t *testing.T) (libre, deepl, openai *engineFake, urls [3]string) {
	libre, deepl, openai = &engineFake{}, &engineFake{}, &engineFake{}
	ls := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := libre.record(r)
		var out []string
		for _, s := range strs(body["q"]) {
			out = append(out, "LT:"+s)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"translatedText": out})
	}))
	ds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := deepl.record(r)
		var out []map[string]string
		for _, s := range strs(body["text"]) {
			out = append(out, map[string]string{"detected_source_language": "EN", "text": "DL:" + s})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"translations": out})
	}))
	os := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := openai.record(r)
		msgs := body["messages"].([]any)
		var req struct {
			Strings []string `json:"strings"`
		}
		_ = json.Unmarshal([]byte(msgs[len(msgs)-1].(map[string]any)["content"].(string)), &req)
		var out []string
		for _, s := range req.Strings {
			out = append(out, "AI:"+s)
		}
		content, _ := json.Marshal(out)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "c1", "object": "chat.completion", "choices": []any{
			map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}}})
	}))
	t.Cleanup(func() { ls.Close(); ds.Close(); os.Close() })
	return libre, deepl, openai, [3]string{ls.URL, ds.URL, os.URL}
}

// TestAutoTranslateMachine fills strings from fake LibreTranslate, DeepL
// and OpenAI-compatible servers configured for the site: each receives its
// API's request with its key where the API wants it, the strings take the
// answers, and no key reaches the log or the API's answers. A project's
// own engine on a loopback address is refused.
func TestAutoTranslateMachine(t *testing.T) {
	const ltKey, dlKey, aiKey = "lt-sekrit-0001", "dl-sekrit-0002:fx", "ai-sekrit-0003"
	libre, deepl, openai, urls := mtFakes(t)
	settings, _ := json.Marshal(map[string]any{
		"libretranslate": map[string]string{"url": urls[0] + "/", "key": ltKey},
		"deepl":          map[string]string{"url": urls[1] + "/v2/", "key": dlKey, "formality": "prefer_less"},
		"openai":         map[string]string{"base_url": urls[2] + "/v1", "key": aiKey, "model": "llama3.1"},
	})
	repo, err := origin.Create(t.TempDir(), map[string][]byte{"po/app.pot": []byte(autoPOT),
		"po/de.po": []byte(strings.Replace(autoPOT, "charset=UTF-8\\n\"\n", "charset=UTF-8\\n\"\n\"Language: de\\n\"\n", 1))})
	if err != nil {
		t.Fatal(err)
	}
	base, logFile := startLogged(t, "TMS_MACHINERY="+string(settings))
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app", "repo": repo,
		"filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/app/de/", nil)
		return status == 200 && tr["total"] == float64(4)
	})
	auto := base + "translations/demo/app/de/autotranslate/"
	for _, step := range []struct{ engine, source, want string }{
		{"deepl", "Open file", "DL:Open file"}, {"libretranslate", "Save file", "LT:Save file"}, {"openai", "Quit", "AI:Quit"},
	} {
		got := call(t, "POST", auto, map[string]any{"mode": "translate", "q": `source:="` + step.source + `"`, "auto_source": "mt",
			"engines": []string{step.engine}, "threshold": 80}, 200)
		if got["details"] != "Automatic translation completed, 1 string was updated." {
			t.Errorf("%s: %v", step.engine, got)
		}
		units := call(t, "GET", base+"translations/demo/app/de/units/?q="+url.QueryEscape(`source:="`+step.source+`"`), nil, 200)
		u := units["results"].([]any)[0].(map[string]any)
		if join(u["target"]) != step.want || u["state"] != 20.0 {
			t.Errorf("%s filled %v (state %v), want %q", step.engine, u["target"], u["state"], step.want)
		}
	}
	checkEngineRequests(t, libre, deepl, openai, ltKey, dlKey, aiKey)
	checkMachineryEndpoint(t, base)
	checkProjectEngineRefused(t, base, urls[0])
	logs := readLog(t, logFile)
	for _, key := range []string{ltKey, dlKey, aiKey} {
		if strings.Contains(logs, key) {
			t.Errorf("the log holds the key %s", key)
		}
	}
}

func checkEngineRequests(t *testing.T, libre, deepl, openai *engineFake, ltKey, dlKey, aiKey string) {
	t.Helper()
	if r := deepl.last(t); r.path != "/v2/translate" || r.header.Get("Authorization") != "DeepL-Auth-Key "+dlKey ||
		r.body["source_lang"] != "EN" || r.body["target_lang"] != "DE" || r.body["formality"] != "prefer_less" ||
		fmt.Sprint(r.body["text"]) != "[Open file]" {
		t.Errorf("DeepL got %s %v %v", r.path, r.header, r.body)
	}
	if r := libre.last(t); r.path != "/translate" || r.body["api_key"] != ltKey || r.body["source"] != "en" ||
		r.body["target"] != "de" || fmt.Sprint(r.body["q"]) != "[Save file]" {
		t.Errorf("LibreTranslate got %s %v", r.path, r.body)
	}
	r := openai.last(t)
	if r.path != "/v1/chat/completions" || r.header.Get("Authorization") != "Bearer "+aiKey || r.body["model"] != "llama3.1" {
		t.Errorf("OpenAI got %s %v %v", r.path, r.header, r.body)
	}
	msgs := r.body["messages"].([]any)
	if user := msgs[len(msgs)-1].(map[string]any); user["role"] != "user" || !strings.Contains(user["content"].(string), `"strings":["Quit"]`) {
		t.Errorf("OpenAI user message: %v", user)
	}
}

// checkMachineryEndpoint: a string's proposals from every engine and from
// the memory, keys nowhere in the answer.
func checkMachineryEndpoint(t *testing.T, base string) {
	t.Helper()
	units := call(t, "GET", base+"translations/demo/app/de/units/?q="+url.QueryEscape(`source:="Quit"`), nil, 200)
	id := units["results"].([]any)[0].(map[string]any)["id"].(float64)
	got := call(t, "GET", fmt.Sprintf("%sunits/%d/machinery/", base, int(id)), nil, 200)
	seen := map[string]string{}
	for _, r := range got["results"].([]any) {
		m := r.(map[string]any)
		seen[m["service"].(string)] = m["text"].(string)
	}
	if seen["deepl"] != "DL:Quit" || seen["libretranslate"] != "LT:Quit" || seen["openai"] != "AI:Quit" {
		t.Errorf("machinery: %v", got)
	}
	raw, _ := json.Marshal(got)
	if strings.Contains(string(raw), "sekrit") {
		t.Errorf("a key in the answer: %s", raw)
	}
}

// checkProjectEngineRefused: a project's own LibreTranslate on a loopback
// address is not called (no TMS_ALLOW_LOCAL_MACHINERY).
func checkProjectEngineRefused(t *testing.T, base, local string) {
	t.Helper()
	call(t, "POST", base+"projects/demo/machinery_settings/", map[string]any{"service": "libretranslate",
		"configuration": map[string]any{"url": local + "/"}}, 201)
	got := call(t, "POST", base+"translations/demo/app/de/autotranslate/", map[string]any{"mode": "translate",
		"q": "state:empty", "auto_source": "mt", "engines": []string{"libretranslate"}, "threshold": 80}, 200)
	if d, _ := got["details"].(string); !strings.HasPrefix(d, "Automatic translation failed: libretranslate:") {
		t.Errorf("a project's loopback engine: %v", got)
	}
}

// startLogged runs the binary with env, its output in a file, and waits
// for its API; it answers the API's base URL and the log file.
func startLogged(t *testing.T, env ...string) (base, logFile string) {
	t.Helper()
	bin := stacktest.Build(t)
	httpAddr := stacktest.FreeAddr(t)
	logFile = t.TempDir() + "/tms.log"
	out, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append([]string{"TMS_DATA_DIR=" + t.TempDir(), "TMS_HTTP_ADDR=" + httpAddr,
		"TMS_ADMIN_TOKEN=" + adminToken, "TMS_ALLOW_LOCAL_REPOS=true"}, env...)...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err = cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = out.Close()
		if t.Failed() {
			raw, _ := os.ReadFile(logFile)
			t.Logf("tms output:\n%s", raw)
		}
	})
	base = "http://" + httpAddr + "/api/"
	stacktest.WaitHTTP(t, base)
	return base, logFile
}

// readLog reads the log so far (the process runs until the test's
// cleanup).
func readLog(t *testing.T, logFile string) string {
	t.Helper()
	raw, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
