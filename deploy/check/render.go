package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// scheme knows the kinds a deployment may use.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme,
		policyv1.AddToScheme, autoscalingv2.AddToScheme, networkingv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// Load renders the overlay in dir and reads the Secrets it expects the
// operator to create (EXTERNAL_SECRETS: one name per line, first word;
// # starts a comment).
func Load(dir string) (Deployment, error) {
	objs, err := Render(dir)
	if err != nil {
		return Deployment{}, err
	}
	d := Deployment{Objects: objs, External: map[string]bool{}}
	data, err := os.ReadFile(filepath.Join(dir, "EXTERNAL_SECRETS")) //nolint:gosec // G304: the overlay the operator named
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return Deployment{}, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			d.External[f[0]] = true
		}
	}
	return d, nil
}

// Render builds the kustomization in dir (offline: no remote bases) and
// decodes each object strictly into its API type.
func Render(dir string) ([]runtime.Object, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, err
	}
	decoder := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	var out []runtime.Object
	for _, r := range m.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			return nil, err
		}
		obj, gvk, err := decoder.Decode(y, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.GetKind(), r.GetName(), err)
		}
		if gvk.Kind != r.GetKind() {
			return nil, fmt.Errorf("%s %s decoded as %s", r.GetKind(), r.GetName(), gvk.Kind)
		}
		out = append(out, obj)
	}
	return out, nil
}
