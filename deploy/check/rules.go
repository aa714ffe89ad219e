package main

import (
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// components are the processes every overlay deploys.
var components = []string{"catalog", "translation", "changelog", "notification", "gateway"}

const componentLabel = "app.kubernetes.io/component"

// Check holds a rendered deployment to the house rules.
func Check(objs []runtime.Object) error {
	var errs []error
	secrets, configMaps := map[string]bool{}, map[string]bool{}
	guarded, deployed := map[string]bool{}, map[string]bool{}
	var pods []podOf
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.Secret:
			secrets[o.Name] = true
		case *corev1.ConfigMap:
			configMaps[o.Name] = true
		case *networkingv1.NetworkPolicy:
			guarded[o.Spec.PodSelector.MatchLabels[componentLabel]] = true
		case *appsv1.Deployment:
			pods = append(pods, podOf{"Deployment " + o.Name, o.Spec.Template.Spec, true})
			deployed[o.Spec.Template.Labels[componentLabel]] = true
		case *appsv1.StatefulSet:
			pods = append(pods, podOf{"StatefulSet " + o.Name, o.Spec.Template.Spec, true})
			deployed[o.Spec.Template.Labels[componentLabel]] = true
		case *batchv1.Job:
			pods = append(pods, podOf{"Job " + o.Name, o.Spec.Template.Spec, false})
		}
	}
	for _, p := range pods {
		errs = append(errs, p.check(secrets, configMaps)...)
	}
	for _, c := range components {
		if !deployed[c] {
			errs = append(errs, fmt.Errorf("no workload runs %s", c))
		}
		if !guarded[c] {
			errs = append(errs, fmt.Errorf("no NetworkPolicy selects %s", c))
		}
	}
	return errors.Join(errs...)
}

// podOf is the pod template of a workload; serving ones need probes.
type podOf struct {
	name    string
	spec    corev1.PodSpec
	serving bool
}

func (p podOf) check(secrets, configMaps map[string]bool) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf(p.name+": "+format, args...))
	}
	if sc := p.spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		fail("pod may run as root")
	}
	for _, c := range p.spec.Containers {
		if p.serving && (c.ReadinessProbe == nil || c.LivenessProbe == nil) {
			fail("container %s lacks a readiness or liveness probe", c.Name)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() ||
			c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			fail("container %s lacks CPU or memory requests or limits", c.Name)
		}
		if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			fail("container %s may escalate privileges", c.Name)
		}
		for _, from := range c.EnvFrom {
			if r := from.SecretRef; r != nil && !secrets[r.Name] {
				fail("container %s reads Secret %s, which is not deployed", c.Name, r.Name)
			}
			if r := from.ConfigMapRef; r != nil && !configMaps[r.Name] {
				fail("container %s reads ConfigMap %s, which is not deployed", c.Name, r.Name)
			}
		}
	}
	return errs
}
