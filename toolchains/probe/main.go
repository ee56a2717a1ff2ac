// Command gpu-probe prints the compute capability of every GPU the CUDA driver can see, one per
// line ("9.0"), for the local_cuda repository rule. It uses the driver API through gorgonia.org/cu,
// whose package init exits the process when cuInit fails (no GPU, no driver): run it as a separate
// process and read any failure as "no GPUs".
package main

import (
	"fmt"
	"os"

	"gorgonia.org/cu"
)

func main() {
	caps, err := probe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpu-probe:", err)
		os.Exit(1)
	}
	for _, c := range caps {
		fmt.Println(c)
	}
}

// probe returns "major.minor" for each visible device, in device order.
func probe() ([]string, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("counting devices: %w", err)
	}
	caps := make([]string, 0, n)
	for i := 0; i < n; i++ {
		major, minor, err := cu.Device(i).ComputeCapability()
		if err != nil {
			return nil, fmt.Errorf("device %d: compute capability: %w", i, err)
		}
		caps = append(caps, fmt.Sprintf("%d.%d", major, minor))
	}
	return caps, nil
}
