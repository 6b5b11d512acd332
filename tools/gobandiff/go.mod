module gobandiff

go 1.26
