package main

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// TestOverlays renders every overlay and holds it to the rules.
func TestOverlays(t *testing.T) {
	for _, dir := range []string{"../k8s/overlays/dev", "../k8s/overlays/prod"} {
		d, err := Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if err := Check(d); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		secrets := 0
		for _, o := range d.Objects {
			if d, ok := o.(*appsv1.Deployment); ok && d.Namespace != "tms" {
				t.Errorf("%s: Deployment %s in namespace %q", dir, d.Name, d.Namespace)
			}
			if strings.HasSuffix(kindOf(o), "Secret") {
				secrets++
			}
		}
		if secrets+len(d.External) < 6 {
			t.Errorf("%s: %d Secrets made and %d expected, want the service credential, the admin token and one per service database", dir, secrets, len(d.External))
		}
		if strings.HasSuffix(dir, "prod") && secrets != 0 {
			t.Errorf("%s: %d Secrets with values in git", dir, secrets)
		}
	}
}

// TestStrict: a misspelt field or an unknown kind fails the render.
func TestStrict(t *testing.T) {
	cases := map[string]string{
		"misspelt field": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replica: 2\n",
		"wrong type":     "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: two\n",
		"unknown kind":   "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n",
	}
	for name, doc := range cases {
		dir := t.TempDir()
		write(t, dir+"/kustomization.yaml", "resources: [x.yaml]\n")
		write(t, dir+"/x.yaml", doc)
		if _, err := Render(dir); err == nil {
			t.Errorf("%s: rendered without error", name)
		}
	}
}
