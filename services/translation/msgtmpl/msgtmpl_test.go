package msgtmpl

import "testing"

func TestRender(t *testing.T) {
	ctx := Context{
		"language_name": "Czech", "project_name": "Hello", "component_name": "Greeter",
		"url":   "http://x/projects/hello/greeter/cs/",
		"stats": map[string]any{"translated_percent": 86.6, "translated": 13, "all": 15, "whole": 100.0},
		"component_linked_childs": []any{
			map[string]any{"project_name": "Hello", "name": "Manual", "url": "http://x/m/"},
			map[string]any{"project_name": "Hello", "name": "Docs", "url": "http://x/d/"},
		},
		"empty": "", "yes": true,
	}
	weblateDefault := "Translated using Weblate ({{ language_name }})\n\n" +
		"Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n" +
		"Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}\n"
	tests := []struct{ src, want string }{
		{weblateDefault, "Translated using Weblate (Czech)\n\nCurrently translated at 86.6% (13 of 15 strings)\n\n" +
			"Translation: Hello/Greeter\nTranslate-URL: http://x/projects/hello/greeter/cs/\n"},
		{"{{ stats.whole }}", "100.0"},
		{"{{missing}}|{{ missing.deep }}", "|"},
		{"{% if component_linked_childs %}Also:{% for linked in component_linked_childs %} {{ linked.project_name }}/{{ linked.name }}{% endfor %}{% endif %}",
			"Also: Hello/Manual Hello/Docs"},
		{"{% if empty %}a{% else %}b{% endif %}", "b"},
		{"{% if not empty %}a{% endif %}", "a"},
		{"{% if yes %}{% if missing %}x{% else %}y{% endif %}{% endif %}", "y"},
		{"{{ empty|default:\"none\" }} {{ language_name|upper }} {{ language_name|lower }}", "none CZECH czech"},
		{"{# note #}a { b } {c", "a { b } {c"},
		{"{{ yes }}", "True"},
	}
	for _, tt := range tests {
		got, err := Render(tt.src, ctx)
		if err != nil {
			t.Errorf("Render(%q): %v", tt.src, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Render(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"{% if a %}x", "{% for x in a %}", "{% endif %}", "{{ a|nope }}", "{% include 'x' %}", "{{ a ",
		"{% if a b %}{% endif %}", "{% for x a %}{% endfor %}",
	} {
		if _, err := Parse(src); err == nil {
			t.Errorf("Parse(%q) succeeded", src)
		}
	}
}
