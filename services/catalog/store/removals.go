package store

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// Removals is the outbox table of the deletes the translation service has
// to follow: each delete of components (alone, with a category or with
// their project) writes, in its transaction, one event whose payload is
// the ForgetComponents request that drops what the translation service
// holds of them. A table of its own, so that only the relay that delivers
// to the translation service takes these events (outbox.Table); migrate it
// with Removals.Migrations().
var Removals = outbox.Table("removal_events")

// RemovalTopic is the topic of the events in Removals.
const RemovalTopic = "translation.forget"

// recordRemoval writes the removal of the components (and the projects)
// into Removals within tx.
func recordRemoval(tx *gorm.DB, removed []Component, projectIDs ...int64) error {
	if len(removed) == 0 && len(projectIDs) == 0 {
		return nil
	}
	req := &translationv1.ForgetComponentsRequest{ProjectIds: projectIDs}
	for _, c := range removed {
		req.ComponentIds = append(req.ComponentIds, c.ID)
	}
	payload, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode removal: %w", err)
	}
	_, err = Removals.Add(tx, RemovalTopic, payload)
	return err
}

// RemovedComponents lists the deleted components whose removal the
// translation service has not taken yet, by id.
func (s *Store) RemovedComponents(ctx context.Context) ([]int64, error) {
	return cached(s.db, &s.cache.removed, struct{}{}, func() ([]int64, error) {
		events, err := Removals.Undelivered(s.db.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		var ids []int64
		for _, ev := range events {
			req, err := DecodeRemoval(ev)
			if err != nil {
				return nil, err
			}
			ids = append(ids, req.GetComponentIds()...)
		}
		return ids, nil
	})
}

// DecodeRemoval reads the ForgetComponents request an event of Removals
// carries.
func DecodeRemoval(ev outbox.Event) (*translationv1.ForgetComponentsRequest, error) {
	req := &translationv1.ForgetComponentsRequest{}
	if err := proto.Unmarshal(ev.Payload, req); err != nil {
		return nil, fmt.Errorf("decode removal %s: %w", ev.EventID, err)
	}
	return req, nil
}
