module glidepath-gitops/tools/judges

go 1.22

require (
	github.com/docker/distribution v2.8.2+incompatible
	github.com/robfig/cron/v3 v3.0.1
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/opencontainers/go-digest v1.0.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
)
