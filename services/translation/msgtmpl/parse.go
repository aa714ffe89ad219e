package msgtmpl

import (
	"fmt"
	"strings"
)

type node interface{}

type textNode string

type varNode struct {
	path    string
	filters []filter
}

type filter struct{ name, arg string }

type ifNode struct {
	negate          bool
	path            string
	then, otherwise []node
}

type forNode struct {
	name, path string
	body       []node
}

// Template is a parsed message template.
type Template struct{ nodes []node }

// Parse compiles src.
func Parse(src string) (*Template, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	nodes, end, err := p.block()
	if err != nil {
		return nil, err
	}
	if end != "" {
		return nil, fmt.Errorf("msgtmpl: unexpected {%% %s %%}", end)
	}
	return &Template{nodes: nodes}, nil
}

type token struct {
	kind byte // 't' text, 'v' variable, 'b' block tag
	text string
}

func tokenize(src string) ([]token, error) {
	var out []token
	for len(src) > 0 {
		i := strings.IndexByte(src, '{')
		if i < 0 || i == len(src)-1 {
			out = append(out, token{'t', src})
			break
		}
		closeTag := map[byte]string{'{': "}}", '%': "%}", '#': "#}"}[src[i+1]]
		if closeTag == "" {
			out = append(out, token{'t', src[:i+1]})
			src = src[i+1:]
			continue
		}
		if i > 0 {
			out = append(out, token{'t', src[:i]})
		}
		j := strings.Index(src[i+2:], closeTag)
		if j < 0 {
			return nil, fmt.Errorf("msgtmpl: unclosed %q", src[i:i+2])
		}
		inner := strings.TrimSpace(src[i+2 : i+2+j])
		switch src[i+1] {
		case '{':
			out = append(out, token{'v', inner})
		case '%':
			out = append(out, token{'b', inner})
		}
		src = src[i+2+j+2:]
	}
	return out, nil
}

type parser struct {
	toks []token
	pos  int
}

// block parses nodes until an end tag (endif, else, endfor) and returns it.
func (p *parser) block() ([]node, string, error) {
	var nodes []node
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		p.pos++
		switch t.kind {
		case 't':
			nodes = append(nodes, textNode(t.text))
		case 'v':
			v, err := parseVar(t.text)
			if err != nil {
				return nil, "", err
			}
			nodes = append(nodes, v)
		case 'b':
			fields := strings.Fields(t.text)
			if len(fields) == 0 {
				return nil, "", fmt.Errorf("msgtmpl: empty tag")
			}
			switch fields[0] {
			case "endif", "else", "endfor":
				return nodes, fields[0], nil
			case "if":
				n, err := p.ifTag(fields[1:])
				if err != nil {
					return nil, "", err
				}
				nodes = append(nodes, n)
			case "for":
				n, err := p.forTag(fields[1:])
				if err != nil {
					return nil, "", err
				}
				nodes = append(nodes, n)
			default:
				return nil, "", fmt.Errorf("msgtmpl: unsupported tag %q", fields[0])
			}
		}
	}
	return nodes, "", nil
}

func (p *parser) ifTag(args []string) (node, error) {
	n := &ifNode{}
	if len(args) == 2 && args[0] == "not" {
		n.negate, args = true, args[1:]
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("msgtmpl: unsupported condition %q", strings.Join(args, " "))
	}
	n.path = args[0]
	var end string
	var err error
	if n.then, end, err = p.block(); err != nil {
		return nil, err
	}
	if end == "else" {
		if n.otherwise, end, err = p.block(); err != nil {
			return nil, err
		}
	}
	if end != "endif" {
		return nil, fmt.Errorf("msgtmpl: {%% if %%} without {%% endif %%}")
	}
	return n, nil
}

func (p *parser) forTag(args []string) (node, error) {
	if len(args) != 3 || args[1] != "in" {
		return nil, fmt.Errorf("msgtmpl: unsupported loop %q", strings.Join(args, " "))
	}
	body, end, err := p.block()
	if err != nil {
		return nil, err
	}
	if end != "endfor" {
		return nil, fmt.Errorf("msgtmpl: {%% for %%} without {%% endfor %%}")
	}
	return &forNode{name: args[0], path: args[2], body: body}, nil
}

func parseVar(s string) (node, error) {
	parts := strings.Split(s, "|")
	v := &varNode{path: strings.TrimSpace(parts[0])}
	for _, f := range parts[1:] {
		name, arg, _ := strings.Cut(strings.TrimSpace(f), ":")
		if !knownFilters[name] {
			return nil, fmt.Errorf("msgtmpl: unknown filter %q", name)
		}
		v.filters = append(v.filters, filter{name: name, arg: strings.Trim(arg, `"'`)})
	}
	return v, nil
}

var knownFilters = map[string]bool{"default": true, "lower": true, "upper": true, "title": true}
