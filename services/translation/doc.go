// Package translation is the translation service: translations, units and
// their statistics, import tasks, and the component working copies. New
// opens and migrates its database; Register exposes the gRPC service; Run
// delivers the recorded change records to the changelog service and commits
// pending changes older than their component's commit_pending_age.
package translation
