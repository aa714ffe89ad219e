package outbox

import (
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

//go:embed migrations
var migrations embed.FS

// Migrations creates the outbox_events table. Add it to the service's
// migration sources.
var Migrations = db.EmbeddedSource("outbox", migrations, "migrations")

// Event is one committed event as handed to a Deliverer.
type Event struct {
	ID        int64  // position in the outbox, increasing
	EventID   string // UUID; consumers deduplicate on it
	Topic     string
	Payload   []byte
	CreatedAt time.Time // UTC
}

// record is the outbox_events row.
type record struct {
	ID          int64 `gorm:"primaryKey"`
	EventID     string
	Topic       string
	Payload     []byte
	CreatedAt   time.Time
	Attempts    int
	LastError   *string
	DeliveredAt *time.Time
}

func (record) TableName() string { return "outbox_events" }

func (r record) event() Event {
	if r.Payload == nil {
		r.Payload = []byte{} // SQLite reads an empty blob back as nil
	}
	return Event{ID: r.ID, EventID: r.EventID, Topic: r.Topic, Payload: r.Payload, CreatedAt: r.CreatedAt.UTC()}
}

// AddAll is Add of many events of one topic in multi-row statements, for
// bulk writes (an upload of thousands of strings).
func AddAll(tx *gorm.DB, topic string, payloads [][]byte) error {
	return Events.AddAll(tx, topic, payloads)
}

// AddAll is AddAll into table t.
func (t Table) AddAll(tx *gorm.DB, topic string, payloads [][]byte) error {
	if topic == "" {
		return errors.New("outbox: event topic is empty")
	}
	at := time.Now().UTC()
	q := tx.Session(&gorm.Session{NewDB: true})
	for start := 0; start < len(payloads); start += addAllBatch {
		chunk := payloads[start:min(start+addAllBatch, len(payloads))]
		var sb strings.Builder
		sb.WriteString("INSERT INTO " + t.name() + " (event_id, topic, payload, created_at) VALUES ")
		args := make([]any, 0, 4*len(chunk))
		for i, p := range chunk {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("(?, ?, ?, ?)")
			if p == nil {
				p = []byte{} // the column is NOT NULL
			}
			args = append(args, newEventID(), topic, p, at)
		}
		if err := q.Exec(sb.String(), args...).Error; err != nil {
			return fmt.Errorf("outbox: add %d %s events: %w", len(chunk), topic, err)
		}
	}
	return nil
}

// newEventID is a time-ordered UUID (version 7): the event ids of an
// outbox, and of the consumers that keep them to drop duplicates, are
// unique indexes, and random keys made every insert of a 233k-string
// upload's change records land on a different page of them.
func newEventID() string {
	return uuid.Must(uuid.NewV7()).String()
}

// addAllBatch is how many events AddAll writes per statement.
const addAllBatch = 250

// Add records an event in tx, which should be the transaction making the
// state change the event reports: the event then exists if and only if the
// change commits. It returns the event's new id.
func Add(tx *gorm.DB, topic string, payload []byte) (string, error) {
	return Events.Add(tx, topic, payload)
}

// Add is Add into table t.
func (t Table) Add(tx *gorm.DB, topic string, payload []byte) (string, error) {
	if topic == "" {
		return "", errors.New("outbox: event topic is empty")
	}
	if payload == nil {
		payload = []byte{} // the column is NOT NULL
	}
	id := newEventID()
	// A new session keeps tx's connection and context but drops any
	// conditions the caller chained onto it. A plain INSERT: Create would
	// reflect over the record and read its id back, which no caller needs,
	// on every change of every write.
	err := tx.Session(&gorm.Session{NewDB: true}).Exec(
		`INSERT INTO `+t.name()+` (event_id, topic, payload, created_at) VALUES (?, ?, ?, ?)`,
		id, topic, payload, time.Now().UTC()).Error
	if err != nil {
		return "", fmt.Errorf("outbox: add %s event: %w", topic, err)
	}
	return id, nil
}
