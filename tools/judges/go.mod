module glidepath-gitops/tools/judges

go 1.22

require (
	github.com/docker/distribution v2.8.2+incompatible
	github.com/robfig/cron/v3 v3.0.1
)

require github.com/opencontainers/go-digest v1.0.0 // indirect
