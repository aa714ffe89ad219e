package delivery

import (
	"context"
	"slices"

	"github.com/tmsproject/tms/pkg/policy"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// changeWindow is the span of ids one read of the change log covers.
const changeWindow = 500

// loadChanges reads the records ids from the change log. Deliveries and
// mail keep a record's id only, not a copy of it: the fan-out of one bulk
// request would otherwise store its every text again per webhook and per
// recipient. Ids close together (an upload's) come in one read per
// changeWindow of them; a record no longer in the log is absent.
func (d *Deliverer) loadChanges(ctx context.Context, ids []int64) (map[int64]*changelogv1.Change, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make(map[int64]*changelogv1.Change, len(ids))
	for i := 0; i < len(ids); {
		first := ids[i]
		j := i
		for j < len(ids) && ids[j] < first+changeWindow {
			j++
		}
		// the records of the window that exist are at most its size, so
		// all come back, whatever other ids lie between them
		resp, err := d.ChangeLog.ListChangesAfter(policy.System(ctx), &changelogv1.ListChangesAfterRequest{
			AfterId: first - 1, Limit: ids[j-1] - first + 1})
		if err != nil {
			return nil, err
		}
		for _, c := range resp.GetChanges() {
			if _, ok := slices.BinarySearch(ids[i:j], c.GetId()); ok {
				out[c.GetId()] = c
			}
		}
		i = j
	}
	return out, nil
}

// changeOf is what mail needs of a record.
func changeOf(pc *changelogv1.Change) Change {
	return Change{ID: pc.GetId(), Action: pc.GetAction(), Project: pc.GetProjectSlug(), Component: pc.GetComponentSlug(),
		Language: pc.GetLanguageCode(), Author: pc.GetUser(), Target: pc.GetTarget()}
}
