package po

import (
	"os"
	"strings"
	"testing"
)

func TestZZPairTable(t *testing.T) {
	data, _ := os.ReadFile("/tmp/ctable.txt")
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")
	names := strings.Fields("WJ GL B2 BA BB HY CL CP1 CP2 EX IN NS OP1 OP2 QU1 QU2 QU3 IS NU PO PR SY AL1 AL2 H2 H3 ID1 ID2 JL JV JT HL AP AK AS VI VF RI ZWJ EB EM")
	m := map[string]uint8{"D": 1, "I": 2, "P": 3}
	for b, row := range rows {
		for a, c := range strings.Split(row, ",") {
			if b == lbZWJ || a == lbZWJ {
				continue
			}
			if pairTable[b][a] != m[c] {
				t.Errorf("%s %s: got %d want %s", names[b], names[a], pairTable[b][a], c)
			}
		}
	}
}
