package main

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// TestRulesRefuse breaks the production overlay one way at a time: each
// rule names what is wrong.
func TestRulesRefuse(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(d *Deployment)
		want    string
	}{
		{"no startup probe", func(d *Deployment) {
			each(d, func(w *appsv1.Deployment) { w.Spec.Template.Spec.Containers[0].StartupProbe = nil })
		}, "lacks a startup, readiness or liveness probe"},
		{"no preStop", func(d *Deployment) {
			each(d, func(w *appsv1.Deployment) { w.Spec.Template.Spec.Containers[0].Lifecycle = nil })
		}, "has no preStop drain"},
		{"pprof on", func(d *Deployment) {
			for _, o := range d.Objects {
				if c, ok := o.(*corev1.ConfigMap); ok {
					c.Data["TMS_PPROF"] = "true"
				}
			}
		}, "turns pprof on"},
		{"a ClusterIP service", func(d *Deployment) {
			for _, o := range d.Objects {
				if s, ok := o.(*corev1.Service); ok && s.Name == "translation" {
					s.Spec.ClusterIP = ""
				}
			}
		}, "Service translation is not headless"},
		{"ingress limit", func(d *Deployment) {
			for _, o := range d.Objects {
				if i, ok := o.(*networkingv1.Ingress); ok {
					i.Annotations["nginx.ingress.kubernetes.io/proxy-body-size"] = "64m"
				}
			}
		}, "body limit \"64m\""},
		{"a budget over one replica", func(d *Deployment) {
			one := int32(1)
			each(d, func(w *appsv1.Deployment) { w.Spec.Replicas = &one })
		}, "only blocks node drains"},
		{"a budget that keeps nothing", func(d *Deployment) {
			for _, o := range d.Objects {
				if p, ok := o.(*policyv1.PodDisruptionBudget); ok {
					p.Spec.MinAvailable.IntVal = 0
				}
			}
		}, "lets every replica"},
		{"a placeholder secret", func(d *Deployment) {
			d.Objects = append(d.Objects, &corev1.Secret{StringData: map[string]string{"TMS_SERVICE_TOKEN": "change-me"}})
		}, "is a placeholder"},
		{"an unknown secret", func(d *Deployment) { delete(d.External, "tms-service") }, "neither deployed nor listed"},
		{"a shared disk", func(d *Deployment) {
			d.Objects = append(d.Objects, &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}}}}}})
		}, "ReadWriteMany"},
	}
	for _, c := range cases {
		d, err := Load("../k8s/overlays/prod")
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(d); err != nil {
			t.Fatalf("unbroken: %v", err)
		}
		c.breakIt(&d)
		if err := Check(d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func each(d *Deployment, f func(*appsv1.Deployment)) {
	for _, o := range d.Objects {
		if w, ok := o.(*appsv1.Deployment); ok {
			f(w)
		}
	}
}
