package rest

import (
	"errors"
	"math"
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
func parsePager(q url.Values, def, maxSize int64) (pager, error) {
	p := pager{page: 1, size: def}
	if s := q.Get("page_size"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			p.size = min(n, maxSize)
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

// saturate32 is an offset or a size for a service's int32 field: one beyond
// int32 asks for rows past the end (an invalid page) instead of wrapping
// around into another page.
func saturate32(n int64) int32 {
	switch {
	case n > math.MaxInt32:
		return math.MaxInt32
	case n < math.MinInt32:
		return math.MinInt32
	}
	return int32(n)
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
func (c *call) pager(def, maxSize int64) (pager, error) {
	return parsePager(c.r.URL.Query(), def, maxSize)
}

// page writes one page of a list whose total the service reported.
func (c *call) page(p pager, total int64, results any) error {
	body, err := envelope(c.urls.base, c.origPath(), c.r.URL.Query(), p, total, results)
	if err != nil {
		return err
	}
	return c.ok(body)
}

// window is the part [lo:hi) of a list of total rows this page shows.
func (p pager) window(total int64) (lo, hi int64) {
	lo = min(p.offset(), total)
	return lo, min(lo+p.size, total)
}

// pageOf paginates a list held in memory.
func pageOf[T any](c *call, p pager, all []T) error {
	lo, hi := p.window(int64(len(all)))
	results := all[lo:hi]
	if results == nil {
		results = []T{}
	}
	return c.page(p, int64(len(all)), results)
}

// eachPage walks a whole list a backend pages: fetch handles the rows at
// offset and limit and reports how many it got and the backend's total.
func eachPage(fetch func(offset, limit int64) (n int, total int64, err error)) error {
	var offset int64
	for {
		n, total, err := fetch(offset, maxPageSize)
		if err != nil {
			return err
		}
		offset += int64(n)
		if n == 0 || offset >= total {
			return nil
		}
	}
}

// fetchFunc asks a backend for the rows at offset and limit of a list it
// pages itself and answers them rendered, with the backend's total.
type fetchFunc func(offset, limit int64) (rows any, total int64, err error)

// servicePage writes the requested page (default sizes) of a list the
// backend pages.
func (c *call) servicePage(fetch fetchFunc) error {
	return c.servicePageSized(defaultPageSize, maxPageSize, fetch)
}

// servicePageSized is servicePage with its own default and largest size.
func (c *call) servicePageSized(def, maxSize int64, fetch fetchFunc) error {
	p, err := c.pager(def, maxSize)
	if err != nil {
		return err
	}
	rows, total, err := fetch(p.offset(), p.size)
	if err != nil {
		return err
	}
	return c.page(p, total, rows)
}

// pageRows renders the rows of a backend's page for a fetchFunc; err is
// the backend's, answered as it is.
func pageRows[T, J any](rows []T, total int64, err error, render func(T) (J, error)) (any, int64, error) {
	if err != nil {
		return nil, 0, err
	}
	out, err := renderAll(rows, render)
	return out, total, err
}

// errSkipRow from a rendering leaves the row out of the list. It is no
// place for a rule (what a caller may see is the services' to filter, so
// that pages and totals agree): only for a row that its service's data,
// delivered later, will leave out.
var errSkipRow = errors.New("row left out")

// renderAll renders every row (an empty list renders as [], not null).
func renderAll[T, J any](rows []T, render func(T) (J, error)) ([]J, error) {
	out := make([]J, 0, len(rows))
	for _, r := range rows {
		j, err := render(r)
		if errors.Is(err, errSkipRow) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// always adapts a rendering that cannot fail.
func always[T, J any](render func(T) J) func(T) (J, error) {
	return func(x T) (J, error) { return render(x), nil }
}
