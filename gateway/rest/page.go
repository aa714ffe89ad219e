package rest

import (
	"net/url"
	"strconv"
)

// Page sizes of COMPAT.md §2.
const (
	defaultPageSize = 50
	maxPageSize     = 1000
	unitsPageSize   = 200
	unitsMaxSize    = 10000
)

// pager is the page a list request asked for.
type pager struct {
	page int64
	size int64
}

func (p pager) offset() int64 { return (p.page - 1) * p.size }

// parsePager reads page and page_size. A bad page is 404 "Invalid page.";
// a bad page_size falls back to the default, a large one is clamped.
func parsePager(q url.Values, def, max int64) (pager, error) {
	p := pager{page: 1, size: def}
	if s := q.Get("page_size"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			p.size = min(n, max)
		}
	}
	if s := q.Get("page"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return p, invalidPage()
		}
		p.page = n
	}
	return p, nil
}

// pageBody is the envelope of every paginated list.
type pageBody struct {
	Count    int64   `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  any     `json:"results"`
}

// envelope checks the page against the total and builds next/previous,
// keeping every other query parameter of the request.
func envelope(base, path string, q url.Values, p pager, total int64, results any) (*pageBody, error) {
	if p.page > 1 && p.offset() >= total {
		return nil, invalidPage()
	}
	body := &pageBody{Count: total, Results: results}
	link := func(page int64) *string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = append([]string(nil), vs...)
		}
		if page == 1 {
			v.Del("page")
		} else {
			v.Set("page", strconv.FormatInt(page, 10))
		}
		s := base + path
		if enc := v.Encode(); enc != "" {
			s += "?" + enc
		}
		return &s
	}
	if p.offset()+p.size < total {
		body.Next = link(p.page + 1)
	}
	if p.page > 1 {
		body.Previous = link(p.page - 1)
	}
	return body, nil
}

// pager reads the page of this request.
func (c *call) pager(def, max int64) (pager, error) {
	return parsePager(c.r.URL.Query(), def, max)
}

// page writes one page of a list whose total the service reported.
func (c *call) page(p pager, total int64, results any) error {
	body, err := envelope(c.urls.base, c.origPath(), c.r.URL.Query(), p, total, results)
	if err != nil {
		return err
	}
	return c.ok(body)
}

// pageOf paginates a list held in memory.
func pageOf[T any](c *call, p pager, all []T) error {
	total := int64(len(all))
	lo := min(p.offset(), total)
	hi := min(lo+p.size, total)
	results := all[lo:hi]
	if results == nil {
		results = []T{}
	}
	return c.page(p, total, results)
}
