package main

import (
	"os"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func kindOf(o runtime.Object) string { return reflect.TypeOf(o).Elem().Name() }
