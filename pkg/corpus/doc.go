// Package corpus finds the real PO catalog that tests and benchmarks use as
// input: shared/corpus/bleachbit (62 PO files maintained by the reference
// service), which lives beside the project checkout, not in it. Callers
// skip, never fail, when it is absent, so the project's tests stand alone.
package corpus
