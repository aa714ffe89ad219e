package rest

import (
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// cancelTask stops a running task (component.edit), answering 204 as
// Weblate's task revocation does, whether or not it was still running.
func (g *gateway) cancelTask(c *call) error {
	if _, err := g.cfg.Translation.CancelTask(c.ctx, &translationv1.CancelTaskRequest{Id: c.param("id")}); err != nil {
		return err
	}
	return c.noContent()
}

func (g *gateway) getTask(c *call) error {
	resp, err := g.cfg.Translation.GetTask(c.ctx, &translationv1.GetTaskRequest{Id: c.param("id")})
	if err != nil {
		return err
	}
	return c.ok(newTaskJSON(resp.GetTask()))
}
