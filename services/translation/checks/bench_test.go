package checks

import "testing"

func BenchmarkRun(b *testing.B) {
	u := unit("The file %d was saved to the folder.", "Die Datei %d wurde im Ordner gespeichert.", "de", "c-format")
	p := unit("%d file|%d files", "%d Datei|%d Dateien", "cs", "c-format")
	b.Run("single", func(b *testing.B) {
		for b.Loop() {
			Run(u)
		}
	})
	b.Run("plural", func(b *testing.B) {
		for b.Loop() {
			Run(p)
		}
	})
	b.Run("flags", func(b *testing.B) {
		for b.Loop() {
			var f Flags
			f.MergeText("c-format, max-length:20")
		}
	})
}

func BenchmarkRunPlain(b *testing.B) {
	u := unit("The file was saved to the folder.", "Die Datei wurde im Ordner gespeichert.", "de", "")
	for b.Loop() {
		Run(u)
	}
}
