STAMP = "stamped by local.things\n"
