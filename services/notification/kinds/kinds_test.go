package kinds

import (
	"fmt"
	"testing"

	"github.com/tmsproject/tms/pkg/weblate"
)

// TestDefaultsAreValid: every default names a kind, scope and frequency
// the reference has, and none is repeated.
func TestDefaultsAreValid(t *testing.T) {
	d := Defaults()
	if len(d) != 10 {
		t.Fatalf("%d defaults, want 10", len(d))
	}
	seen := map[Default]bool{}
	for i, s := range d {
		t.Run(fmt.Sprintf("%d %s", i, s.Notification), func(t *testing.T) {
			if _, ok := weblate.NotificationKinds.Enum(s.Notification); !ok {
				t.Errorf("unknown kind %q", s.Notification)
			}
			if _, ok := weblate.NotificationScopes.Enum(s.Scope); !ok {
				t.Errorf("unknown scope %d", s.Scope)
			}
			if _, ok := weblate.NotificationFrequencies.Enum(s.Frequency); !ok {
				t.Errorf("unknown frequency %d", s.Frequency)
			}
			if seen[s] {
				t.Errorf("repeated default %+v", s)
			}
			seen[s] = true
		})
	}
}
