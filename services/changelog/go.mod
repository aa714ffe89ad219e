module github.com/tmsproject/tms/services/changelog

go 1.26.0

require (
	github.com/tmsproject/tms/pkg v0.0.0
	github.com/tmsproject/tms/proto/gen/go v0.0.0
)

replace (
	github.com/tmsproject/tms/pkg => ../../pkg
	github.com/tmsproject/tms/proto/gen/go => ../../proto/gen/go
)
