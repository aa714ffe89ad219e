// Command check renders each kustomize overlay of deploy/k8s offline and
// decodes every object strictly against the Kubernetes API types
// (k8s.io/api): an unknown field, a wrong type or an unknown kind fails.
// It also holds the deployment to the house rules: every workload has
// readiness and liveness probes, resource requests and limits and a
// restricted security context, every Secret and ConfigMap a workload
// reads is rendered, and every service is guarded by a NetworkPolicy.
//
//	go run ./deploy/check deploy/k8s/overlays/dev deploy/k8s/overlays/prod
package main
