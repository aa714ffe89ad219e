package changefeed

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tmsproject/tms/pkg/changedetails"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// legacyDetails is the field number of details_json, the details as JSON
// text, before they became a Struct (field 14). Records written then may
// still wait in an outbox; they decode with the text as an unknown field.
const legacyDetails protowire.Number = 12

// upgradeDetails moves legacy details text from c's unknown fields into
// c.Details, so a record queued before the upgrade keeps its details.
// Text that is not a JSON object is an error, as AppendChanges refused
// it then.
func upgradeDetails(c *changelogv1.Change) error {
	m := c.ProtoReflect()
	rest := m.GetUnknown()
	var kept []byte
	for len(rest) > 0 {
		num, typ, tagLen := protowire.ConsumeTag(rest)
		if tagLen < 0 {
			return protowire.ParseError(tagLen)
		}
		valLen := protowire.ConsumeFieldValue(num, typ, rest[tagLen:])
		if valLen < 0 {
			return protowire.ParseError(valLen)
		}
		field := rest[:tagLen+valLen]
		rest = rest[tagLen+valLen:]
		if num != legacyDetails || typ != protowire.BytesType {
			kept = append(kept, field...)
			continue
		}
		text, _ := protowire.ConsumeBytes(field[tagLen:])
		d, err := changedetails.FromJSON(string(text))
		if err != nil {
			return fmt.Errorf("legacy details: %w", err)
		}
		if c.GetDetails() == nil {
			c.Details = d
		}
	}
	m.SetUnknown(kept)
	return nil
}
