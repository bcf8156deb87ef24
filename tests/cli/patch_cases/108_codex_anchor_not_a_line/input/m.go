package m

func A() int { return 1 }

func B() int { return 1 }
