package outbox

import (
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
)

func deliveredAt(t *testing.T, gdb *gorm.DB, id int64) *time.Time {
	t.Helper()
	var rec record
	if err := gdb.First(&rec, id).Error; err != nil {
		t.Fatal(err)
	}
	return rec.DeliveredAt
}

func TestMarkDeliveredIsIdempotent(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if _, err := Add(gdb, "t", []byte("p")); err != nil {
			t.Fatal(err)
		}
		var rec record
		if err := gdb.First(&rec).Error; err != nil {
			t.Fatal(err)
		}
		first := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		tests := []struct {
			at   time.Time
			want int64
		}{
			{first, 1},
			{first.Add(time.Hour), 0}, // a second relay's late mark changes nothing
		}
		for _, tt := range tests {
			n, err := markDelivered(gdb, string(Events), []int64{rec.ID}, tt.at)
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.want {
				t.Fatalf("markDelivered at %v stamped %d rows, want %d", tt.at, n, tt.want)
			}
		}
		if got := deliveredAt(t, gdb, rec.ID); got == nil || !got.Equal(first) {
			t.Fatalf("delivered_at = %v, want %v", got, first)
		}
		if err := recordFailure(gdb, string(Events), []int64{rec.ID}, errTest); err != nil {
			t.Fatal(err)
		}
		if err := gdb.First(&rec, rec.ID).Error; err != nil || rec.Attempts != 0 {
			t.Fatalf("a delivered event counted a failed attempt: %d, %v", rec.Attempts, err)
		}
	}, Migrations)
}

type testError struct{}

func (testError) Error() string { return "test" }

var errTest = testError{}

func TestPruneKeepsUndeliveredAndRecentEvents(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		now := time.Now().UTC()
		ids := map[string]int64{}
		for _, name := range []string{"old delivered", "recent delivered", "old undelivered"} {
			if _, err := Add(gdb, name, nil); err != nil {
				t.Fatal(err)
			}
			var rec record
			if err := gdb.Where("topic = ?", name).First(&rec).Error; err != nil {
				t.Fatal(err)
			}
			ids[name] = rec.ID
		}
		if _, err := markDelivered(gdb, string(Events), []int64{ids["old delivered"]}, now.Add(-2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := markDelivered(gdb, string(Events), []int64{ids["recent delivered"]}, now.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := gdb.Exec(`UPDATE outbox_events SET created_at = ? WHERE id = ?`, now.Add(-48*time.Hour), ids["old undelivered"]).Error; err != nil {
			t.Fatal(err)
		}
		if err := NewRelay(gdb, nil).Prune(t.Context()); err != nil {
			t.Fatal(err)
		}
		var left []string
		if err := gdb.Model(&record{}).Order("id").Pluck("topic", &left).Error; err != nil {
			t.Fatal(err)
		}
		if len(left) != 2 || left[0] != "recent delivered" || left[1] != "old undelivered" {
			t.Fatalf("rows left = %v, want the recent delivered and the undelivered ones", left)
		}
	}, Migrations)
}
