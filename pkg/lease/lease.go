package lease

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

//go:embed migrations
var migrations embed.FS

// Migrations creates the leases table. Add it to the migration sources of
// a service that takes leases.
var Migrations = db.EmbeddedSource("lease", migrations, "migrations")

// Leases takes and renews leases for one holder: a process, named by
// Holder.
type Leases struct {
	db     *gorm.DB
	holder string
	// Now is the clock; tests move it.
	Now func() time.Time
}

// New returns the leases of gdb taken as holder (NewHolder when empty).
func New(gdb *gorm.DB, holder string) *Leases {
	if holder == "" {
		holder = NewHolder()
	}
	return &Leases{db: gdb, holder: holder, Now: time.Now}
}

// NewHolder names this process uniquely: host, pid and a random part, so
// that a restarted process on the same host is another holder and does not
// mistake its predecessor's lease for its own.
func NewHolder() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Holder is the name the leases are taken under.
func (l *Leases) Holder() string { return l.holder }

// Acquire takes the named lease for ttl, or renews it when this holder has
// it; held reports whether this holder has it now. A lease another holder
// has and that has not expired is not taken.
func (l *Leases) Acquire(ctx context.Context, name string, ttl time.Duration) (held bool, err error) {
	now := l.Now().UnixMilli()
	// One statement, atomic on both engines: insert, or take over a row
	// that is ours or expired; a live lease of another holder is left as
	// it is and the statement changes nothing.
	res := l.db.WithContext(ctx).Exec(`INSERT INTO leases (name, holder, expires_ms) VALUES (?, ?, ?)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms
WHERE leases.holder = excluded.holder OR leases.expires_ms < ?`, name, l.holder, now+ttl.Milliseconds(), now)
	if res.Error != nil {
		return false, fmt.Errorf("lease %s: %w", name, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Release gives the named lease up at once, if this holder has it, so
// that another replica need not wait for it to expire.
func (l *Leases) Release(ctx context.Context, name string) error {
	err := l.db.WithContext(ctx).Exec(`DELETE FROM leases WHERE name = ? AND holder = ?`, name, l.holder).Error
	if err != nil {
		return fmt.Errorf("release lease %s: %w", name, err)
	}
	return nil
}

// Holding lists who holds the named lease and until when; holder is
// empty when nobody has it or it expired.
func (l *Leases) Holding(ctx context.Context, name string) (holder string, until time.Time, err error) {
	var rows []struct {
		Holder    string
		ExpiresMs int64
	}
	err = l.db.WithContext(ctx).Raw(`SELECT holder, expires_ms FROM leases WHERE name = ?`, name).Scan(&rows).Error
	if err != nil || len(rows) == 0 || rows[0].ExpiresMs < l.Now().UnixMilli() {
		return "", time.Time{}, err
	}
	return rows[0].Holder, time.UnixMilli(rows[0].ExpiresMs), nil
}
