package wlctest

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// step is one wlc command: its arguments, an optional set-up, the text its
// output must contain, and a check of the effect through other means.
type step struct {
	name   string
	args   []string
	stdin  []byte
	before func(s *suite) error
	want   []string
	after  func(s *suite, out string) error
}

// steps are run in order against one stack; later ones build on the state
// the earlier ones leave (an edit committed, pushed, a new upstream string
// pulled).
func steps() []step {
	return []step{
		{name: "list-projects", args: []string{"list-projects"}, want: []string{"slug: hello", "name: Hello"}},
		{name: "list-components", args: []string{"list-components"},
			want: []string{"slug: greeter", "slug: menus", "filemask: menus/*.po"}},
		{name: "list-components project", args: []string{"list-components", "hello"},
			want: []string{"slug: greeter", "slug: menus", "new_base: greeter/greeter.pot"}},
		{name: "list-translations", args: []string{"list-translations"},
			want: []string{"filename: greeter/cs.po", "filename: menus/ar.po"}},
		{name: "list-translations component", args: []string{"list-translations", "hello/greeter"},
			want: []string{"language_code: cs", "language_code: ar", "filename: greeter/de.po"}},
		{name: "list-languages", args: []string{"list-languages"}, want: []string{"code: cs", "code: ar", "name: Czech"}},
		{name: "show project", args: []string{"show", "hello"}, want: []string{"slug: hello", "web: https://hello.example/"}},
		{name: "show component", args: []string{"show", "hello/greeter"},
			want: []string{"filemask: greeter/*.po", "new_base: greeter/greeter.pot", "vcs: git"}},
		{name: "show translation", args: []string{"show", "hello/greeter/cs"},
			want: []string{"language_code: cs", "total: 5", "translated: 2", "filename: greeter/cs.po"}},
		{name: "ls", args: []string{"ls"}, want: []string{"slug: hello"}},
		{name: "ls project", args: []string{"ls", "hello"}, want: []string{"slug: greeter", "slug: menus"}},
		{name: "ls component", args: []string{"ls", "hello/greeter"}, want: []string{"language_code: de", "language_code: en"}},
		// 2 components × (source + 3 languages); translated: sources 9, de 3+3, cs 2+2.
		{name: "stats project", args: []string{"stats", "hello"}, want: []string{"total: 36", "translated: 19"}},
		{name: "stats component", args: []string{"stats", "hello/greeter"},
			want: []string{"code: cs", "name: Czech", "translated_percent: 40.0", "translated_percent: 60.0"}},
		{name: "stats translation", args: []string{"stats", "hello/greeter/de"},
			want: []string{"translated: 3", "translated_percent: 60.0", "total: 5"}},
		{name: "changes component", args: []string{"changes", "hello/greeter"},
			want: []string{"action_name: Component created", "action_name: Resource updated"}},
		{name: "changes project", args: []string{"changes", "hello"}, want: []string{"component: menus", "component: greeter"}},
		{name: "changes translation", args: []string{"changes", "hello/greeter/cs"}, want: []string{"translation: cs"}},
		{name: "lock-status", args: []string{"lock-status", "hello/greeter"}, want: []string{"locked: False"}},
		{name: "lock", args: []string{"lock", "hello/greeter"}, after: lockedIs(true)},
		{name: "unlock", args: []string{"unlock", "hello/greeter"}, after: lockedIs(false)},
		{name: "repo", args: []string{"repo", "hello/greeter"},
			want: []string{"needs_commit: False", "needs_push: False", "remote_commit:", "Initial strings"}},
		{name: "commit", args: []string{"commit", "hello/greeter"}, before: editAndExpectPending, after: committed},
		{name: "repo after commit", args: []string{"repo", "hello/greeter"}, want: []string{"needs_commit: False", "needs_push: True"}},
		{name: "push", args: []string{"push", "hello/greeter"}, after: pushed},
		{name: "pull", args: []string{"pull", "hello/greeter"}, before: upstreamString, after: pulled},
		{name: "reset", args: []string{"reset", "hello/greeter"}, before: localCommit, after: wasReset},
		{name: "cleanup", args: []string{"cleanup", "hello/greeter"}, before: untrackedFile, after: cleaned},
		{name: "download translation", args: []string{"download", "hello/greeter/cs"},
			want: []string{`msgstr "[cs] Odhlásit"`, `msgid "Settings"`, "Plural-Forms: nplurals=3;"}},
		{name: "download component", args: []string{"download", "hello/greeter", "-o", "@OUT@/component"},
			want: []string{"downloaded translations for component: hello/greeter"}, after: zipsIn("component", "greeter")},
		{name: "download project", args: []string{"download", "hello", "-o", "@OUT@/project"},
			want: []string{"downloaded translations for project: hello"}, after: zipsIn("project", "greeter", "menus")},
		{name: "upload", args: []string{"upload", "hello/greeter/de", "--overwrite", "--method", "translate"},
			stdin: []byte(uploadPO), after: uploaded},
	}
}

// uploadPO translates "Help" and "Sign out" into German.
const uploadPO = `msgid ""
msgstr ""
"Language: de\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Sign out"
msgstr "Abmelden (hochgeladen)"

msgid "Help"
msgstr "Hilfe (hochgeladen)"
`

func lockedIs(want bool) func(*suite, string) error {
	return func(s *suite, _ string) error {
		out, err := s.wlc(nil, "lock-status", "hello/greeter")
		if err != nil {
			return err
		}
		if line := fmt.Sprintf("locked: %s", map[bool]string{true: "True", false: "False"}[want]); !strings.Contains(out, line) {
			return fmt.Errorf("lock-status says %q, want %q", strings.TrimSpace(out), line)
		}
		return nil
	}
}

type repoState struct {
	NeedsCommit bool `json:"needs_commit"`
	NeedsPush   bool `json:"needs_push"`
	NeedsMerge  bool `json:"needs_merge"`
}

func (s *suite) repo() (repoState, error) {
	var st repoState
	if code := s.rest("GET", "components/hello/greeter/repository/", nil, &st); code != 200 {
		return st, fmt.Errorf("GET repository: status %d", code)
	}
	return st, nil
}

func editAndExpectPending(s *suite) error {
	if err := s.edit("hello/greeter/cs", "Sign out", "[cs] Odhlásit"); err != nil {
		return err
	}
	if st, err := s.repo(); err != nil || !st.NeedsCommit {
		return fmt.Errorf("after an edit the repository should need a commit: %+v %v", st, err)
	}
	return nil
}

func committed(s *suite, _ string) error {
	st, err := s.repo()
	if err != nil || st.NeedsCommit || !st.NeedsPush {
		return fmt.Errorf("after commit want needs_commit false, needs_push true: %+v %v", st, err)
	}
	return nil
}

func pushed(s *suite, _ string) error {
	po, _, err := s.readOrigin("greeter/cs.po")
	if err != nil {
		return err
	}
	if !strings.Contains(po, `msgstr "[cs] Odhlásit"`) {
		return fmt.Errorf("origin's greeter/cs.po lacks the edit:\n%s", po)
	}
	if st, err := s.repo(); err != nil || st.NeedsPush {
		return fmt.Errorf("after push want needs_push false: %+v %v", st, err)
	}
	return nil
}

// upstreamString adds "Settings" to every greeter file upstream, keeping
// the pushed Czech edit.
func upstreamString(s *suite) error {
	files := map[string][]byte{}
	for _, code := range []string{"", "cs", "de", "ar"} {
		name := "greeter/" + code + ".po"
		if code == "" {
			name = "greeter/greeter.pot"
		}
		text, _, err := s.readOrigin(name)
		if err != nil {
			return err
		}
		files[name] = []byte(text + "\nmsgid \"Settings\"\nmsgstr \"\"\n")
	}
	return s.commitOrigin(files, "Add Settings")
}

func pulled(s *suite, _ string) error {
	var tr struct {
		Total int `json:"total"`
	}
	if code := s.rest("GET", "translations/hello/greeter/cs/", nil, &tr); code != 200 || tr.Total != 6 {
		return fmt.Errorf("after pull cs has %d strings (status %d), want 6", tr.Total, code)
	}
	return nil
}

// localCommit commits an edit that reset must throw away.
func localCommit(s *suite) error {
	if err := s.edit("hello/greeter/de", "Help", "[de] Hilfe (verworfen)"); err != nil {
		return err
	}
	var res struct {
		Result bool `json:"result"`
	}
	if code := s.rest("POST", "components/hello/greeter/repository/", map[string]any{"operation": "commit"}, &res); code != 200 || !res.Result {
		return fmt.Errorf("commit before reset: status %d, %+v", code, res)
	}
	if st, err := s.repo(); err != nil || !st.NeedsPush {
		return fmt.Errorf("before reset want needs_push true: %+v %v", st, err)
	}
	return nil
}

func wasReset(s *suite, _ string) error {
	if st, err := s.repo(); err != nil || st.NeedsPush || st.NeedsCommit {
		return fmt.Errorf("after reset want nothing to commit or push: %+v %v", st, err)
	}
	if got := s.target("hello/greeter/de", "Help"); got != "" {
		return fmt.Errorf("after reset de \"Help\" is %q, want the upstream empty translation", got)
	}
	return nil
}

// untrackedFile drops a file into the component's working copy
// (<data>/translation/repos/<component id>) for cleanup to remove.
func untrackedFile(s *suite) error {
	dir, err := s.workingCopy()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "untracked.tmp"), []byte("junk\n"), 0o644)
}

func cleaned(s *suite, _ string) error {
	dir, err := s.workingCopy()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "untracked.tmp")); !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cleanup left the untracked file (stat: %v)", err)
	}
	if st, err := s.repo(); err != nil || st.NeedsCommit {
		return fmt.Errorf("after cleanup: %+v %v", st, err)
	}
	return nil
}

// zipsIn checks that download -o dir wrote project-component.zip files
// holding the components' PO files.
func zipsIn(sub string, comps ...string) func(*suite, string) error {
	return func(s *suite, _ string) error {
		for _, comp := range comps {
			path := filepath.Join(s.out, sub, "hello-"+comp+".zip")
			zr, err := zip.OpenReader(path)
			if err != nil {
				return err
			}
			var names []string
			for _, f := range zr.File {
				names = append(names, f.Name)
			}
			_ = zr.Close() // read only
			if !containsSuffix(names, comp+"/cs.po") || !containsSuffix(names, comp+"/de.po") {
				return fmt.Errorf("%s holds %v, want %s/cs.po and %s/de.po", path, names, comp, comp)
			}
		}
		return nil
	}
}

func containsSuffix(names []string, suffix string) bool {
	for _, n := range names {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// uploaded checks the upload's effect. wlc sends --overwrite as the form
// field overwrite=yes, which Weblate's upload serializer does not have
// (only conflicts=replace-translated replaces), so the empty "Help" takes
// the uploaded text and the translated "Sign out" keeps its own.
func uploaded(s *suite, _ string) error {
	want := map[string]string{"Help": "Hilfe (hochgeladen)", "Sign out": "[de] Sign out"}
	for src, w := range want {
		if got := s.target("hello/greeter/de", src); got != w {
			return fmt.Errorf("after upload de %q is %q, want %q", src, got, w)
		}
	}
	return nil
}
