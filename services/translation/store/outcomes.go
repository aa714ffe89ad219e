package store

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/outbox"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// Outcomes is the outbox table of what imports found that the catalog
// keeps (the branch a remote's HEAD names): its relay hands them to the
// catalog's RecordImportOutcomes, so that an import calls the catalog
// nothing and a catalog that is down loses nothing. A table of its own
// (outbox.Table), so that only that relay takes them.
var Outcomes = outbox.Table("catalog_events")

// OutcomeTopic is the topic of the events of Outcomes; the payload is a
// catalogv1.ImportOutcome.
const OutcomeTopic = "catalog.import_outcome"

// Sources are every schema the store writes to, in migration order: its
// own, the change records' outbox and the outbox of import outcomes.
func Sources() []db.Source {
	return []db.Source{Migrations, outbox.Migrations, Outcomes.Migrations()}
}

// RecordImportOutcome writes what an import of the component found into
// Outcomes.
func (s *Store) RecordImportOutcome(ctx context.Context, o *catalogv1.ImportOutcome) error {
	payload, err := proto.Marshal(o)
	if err != nil {
		return fmt.Errorf("encode import outcome: %w", err)
	}
	_, err = Outcomes.Add(s.q(ctx), OutcomeTopic, payload)
	return err
}

// DecodeOutcome reads the outcome an event of Outcomes carries.
func DecodeOutcome(ev outbox.Event) (*catalogv1.ImportOutcome, error) {
	o := &catalogv1.ImportOutcome{}
	if err := proto.Unmarshal(ev.Payload, o); err != nil {
		return nil, fmt.Errorf("decode import outcome %s: %w", ev.EventID, err)
	}
	return o, nil
}
