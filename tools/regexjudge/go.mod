module glidepath-gitops/tools/regexjudge

// go 1.21: the judge builds with each Go release whose regexp/syntax differs (test/judge/go-regexp-differential.ts).
go 1.21
