package main

import (
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// components are the processes every overlay deploys; all but the gateway
// are gRPC services the others dial.
var components = []string{"catalog", "translation", "changelog", "notification", "gateway"}

const componentLabel = "app.kubernetes.io/component"

// uploadLimit is the largest request body the gateway takes (a translation
// file upload, README "Configuration"); the Ingress must let it through.
const uploadLimit = "512m"

// placeholders are values example files put where a secret belongs.
var placeholders = []string{"change-me", "changeme", "change_me", "replace-me"}

// Deployment is a rendered overlay and what it expects from outside.
type Deployment struct {
	Objects []runtime.Object
	// External names the Secrets the operator creates by name
	// (EXTERNAL_SECRETS in the overlay): no values in git.
	External map[string]bool
}

// workload is a Deployment or StatefulSet: what the rules need of it.
type workload struct {
	name, component string
	replicas        int32
	spec            corev1.PodSpec
	claims          []corev1.PersistentVolumeClaim
}

// Check holds a rendered deployment to the house rules.
func Check(d Deployment) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	secrets, configMaps := map[string]bool{}, map[string]bool{}
	guarded := map[string]bool{}
	var works []workload
	var pods []podOf
	var pdbs []*policyv1.PodDisruptionBudget
	for _, o := range d.Objects {
		switch o := o.(type) {
		case *corev1.Secret:
			secrets[o.Name] = true
			checkSecret(o, fail)
		case *corev1.ConfigMap:
			configMaps[o.Name] = true
			if isTrue(o.Data["TMS_PPROF"]) {
				fail("ConfigMap %s turns pprof on (TMS_PPROF): profiles are for a debugging session, not a deployment", o.Name)
			}
		case *corev1.Service:
			checkService(o, fail)
		case *networkingv1.NetworkPolicy:
			guarded[o.Spec.PodSelector.MatchLabels[componentLabel]] = true
		case *networkingv1.Ingress:
			if got := o.Annotations["nginx.ingress.kubernetes.io/proxy-body-size"]; got != uploadLimit {
				fail("Ingress %s: body limit %q, want the gateway's upload limit %s", o.Name, got, uploadLimit)
			}
		case *policyv1.PodDisruptionBudget:
			pdbs = append(pdbs, o)
		case *appsv1.Deployment:
			works = append(works, workload{"Deployment " + o.Name, o.Spec.Template.Labels[componentLabel], replicas(o.Spec.Replicas), o.Spec.Template.Spec, nil})
			pods = append(pods, podOf{"Deployment " + o.Name, o.Spec.Template.Spec, true})
		case *appsv1.StatefulSet:
			works = append(works, workload{"StatefulSet " + o.Name, o.Spec.Template.Labels[componentLabel], replicas(o.Spec.Replicas), o.Spec.Template.Spec, o.Spec.VolumeClaimTemplates})
			pods = append(pods, podOf{"StatefulSet " + o.Name, o.Spec.Template.Spec, true})
		case *batchv1.Job:
			pods = append(pods, podOf{"Job " + o.Name, o.Spec.Template.Spec, false})
		}
	}
	for _, p := range pods {
		errs = append(errs, p.check(secrets, configMaps, d.External)...)
	}
	checkWorkloads(works, pdbs, guarded, fail)
	return errors.Join(errs...)
}

// checkWorkloads: every component runs, behind a NetworkPolicy, on no
// shared disk, and every PodDisruptionBudget protects replicas that exist.
func checkWorkloads(works []workload, pdbs []*policyv1.PodDisruptionBudget, guarded map[string]bool, fail func(string, ...any)) {
	deployed := map[string]workload{}
	for _, w := range works {
		deployed[w.component] = w
		for _, c := range w.claims {
			for _, m := range c.Spec.AccessModes {
				if m == corev1.ReadWriteMany {
					fail("%s: volume %s is ReadWriteMany: replicas share no disk", w.name, c.Name)
				}
			}
		}
	}
	for _, c := range components {
		if _, ok := deployed[c]; !ok {
			fail("no workload runs %s", c)
		}
		if !guarded[c] {
			fail("no NetworkPolicy selects %s", c)
		}
	}
	for _, pdb := range pdbs {
		w, ok := deployed[pdb.Spec.Selector.MatchLabels[componentLabel]]
		switch {
		case !ok:
			fail("PodDisruptionBudget %s selects no workload", pdb.Name)
		case w.replicas < 2:
			fail("PodDisruptionBudget %s guards %s at %d replica: it only blocks node drains", pdb.Name, w.name, w.replicas)
		case !protects(pdb, w.replicas):
			fail("PodDisruptionBudget %s lets every replica of %s go at once", pdb.Name, w.name)
		}
	}
}

// protects tells whether a budget keeps at least one of n replicas and
// still lets one go.
func protects(pdb *policyv1.PodDisruptionBudget, n int32) bool {
	scaled := func(v *intstr.IntOrString) int32 {
		got, err := intstr.GetScaledValueFromIntOrPercent(v, int(n), true)
		if err != nil {
			return -1
		}
		return int32(got) //nolint:gosec // a replica count
	}
	if v := pdb.Spec.MinAvailable; v != nil {
		m := scaled(v)
		return m >= 1 && m < n
	}
	if v := pdb.Spec.MaxUnavailable; v != nil {
		m := scaled(v)
		return m >= 1 && m < n
	}
	return false
}

// checkService: the gRPC services are headless, so that callers resolve
// every replica and balance over them.
func checkService(s *corev1.Service, fail func(string, ...any)) {
	c := s.Spec.Selector[componentLabel]
	if c == "" || c == "gateway" || !strings.Contains(strings.Join(components, " "), c) {
		return
	}
	if s.Spec.ClusterIP != corev1.ClusterIPNone {
		fail("Service %s is not headless: gRPC callers would send all their calls to one replica", s.Name)
	}
}

// checkSecret: no Secret carries an example's placeholder.
func checkSecret(s *corev1.Secret, fail func(string, ...any)) {
	values := map[string]string{}
	for k, v := range s.StringData {
		values[k] = v
	}
	for k, v := range s.Data {
		values[k] = string(v)
	}
	for k, v := range values {
		for _, p := range placeholders {
			if strings.Contains(strings.ToLower(v), p) {
				fail("Secret %s: %s is a placeholder", s.Name, k)
			}
		}
	}
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// podOf is the pod template of a workload; serving ones need probes.
type podOf struct {
	name    string
	spec    corev1.PodSpec
	serving bool
}

func (p podOf) check(secrets, configMaps, external map[string]bool) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf(p.name+": "+format, args...))
	}
	if sc := p.spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		fail("pod may run as root")
	}
	for _, c := range p.spec.Containers {
		p.checkServing(c, fail)
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() ||
			c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			fail("container %s lacks CPU or memory requests or limits", c.Name)
		}
		if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			fail("container %s may escalate privileges", c.Name)
		}
		for _, e := range c.Env {
			if e.Name == "TMS_PPROF" && isTrue(e.Value) {
				fail("container %s turns pprof on (TMS_PPROF)", c.Name)
			}
		}
		for _, from := range c.EnvFrom {
			if r := from.SecretRef; r != nil && !secrets[r.Name] && !external[r.Name] {
				fail("container %s reads Secret %s, which is neither deployed nor listed in EXTERNAL_SECRETS", c.Name, r.Name)
			}
			if r := from.ConfigMapRef; r != nil && !configMaps[r.Name] {
				fail("container %s reads ConfigMap %s, which is not deployed", c.Name, r.Name)
			}
		}
	}
	return errs
}

// checkServing: a serving container has startup, readiness and liveness
// probes (the startup probe covers a long migration, which liveness would
// otherwise kill) and leaves the Service's endpoints before it stops.
func (p podOf) checkServing(c corev1.Container, fail func(string, ...any)) {
	if !p.serving {
		return
	}
	if c.StartupProbe == nil || c.ReadinessProbe == nil || c.LivenessProbe == nil {
		fail("container %s lacks a startup, readiness or liveness probe", c.Name)
	}
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
		fail("container %s has no preStop drain", c.Name)
	}
}
