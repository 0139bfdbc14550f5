module github.com/rocpu/rocpu

go 1.26
