#!/bin/sh
echo "site: $(hostname)"
