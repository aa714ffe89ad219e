package rest

import (
	"net/http"
	"strings"
)

// visiblePath answers 404 when the object a write names (its project,
// component, translation, unit, suggestion or comment) is not visible to
// the caller: what a caller may not see does not exist for it, so its
// writes are 404 too, never the 403 of a visible object (COMPAT.md §4). A
// component addressed through a category path that is not its own is not
// found either, as on reads.
// Lookups are memoized: the handler finds them again for free.
func (g *gateway) visiblePath(c *call, rt *route) error {
	if p := c.param("project"); p != "" {
		var err error
		if comp := c.param("component"); comp != "" {
			if c.param("language") != "" {
				_, _, err = c.pathTranslation()
			} else {
				_, err = c.pathComponent()
			}
		} else {
			_, err = c.project(p)
		}
		return err
	}
	if c.param("id") == "" {
		return nil
	}
	switch {
	case rt.pattern == "/api/units/{id}" && (c.r.Method == http.MethodPatch || c.r.Method == http.MethodPut):
		return nil // updateUnit: the service answers 404 itself, or the handler looks up
	case strings.HasPrefix(rt.pattern, "/api/units/"):
		_, err := c.pathUnit()
		return err
	case strings.HasPrefix(rt.pattern, "/api/suggestions/"):
		_, err := c.pathSuggestion()
		return err
	case strings.HasPrefix(rt.pattern, "/api/comments/"):
		_, err := c.pathComment()
		return err
	}
	return nil
}
