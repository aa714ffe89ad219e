// Package catalog is the catalog service: projects, components (the
// repository binding and every setting of a component), languages with
// their plural rules, and the component lock. It serves
// tms.catalog.v1.CatalogService and relays its change records (project and
// component creation and removal, lock and unlock) to the changelog service
// through a transactional outbox.
package catalog
