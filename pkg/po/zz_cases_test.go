package po

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

func TestZZCrateCases(t *testing.T) {
	data, _ := os.ReadFile("/tmp/ttcases/cases.json")
	var cases []struct {
		Text  string   `json:"text"`
		Width int      `json:"width"`
		Lines []string `json:"lines"`
		Name  string   `json:"name"`
	}
	json.Unmarshal(data, &cases)
	for _, c := range cases {
		var got []string
		if c.Text != "" && c.Width > 0 {
			got = packChunks(toolkitChunks(c.Text), c.Width)
		} else if c.Text != "" {
			got = []string{c.Text}
		}
		if len(got) == 0 && len(c.Lines) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.Lines) {
			t.Errorf("%s %q w=%d\n got %q\nwant %q", c.Name, c.Text, c.Width, got, c.Lines)
		}
	}
}
