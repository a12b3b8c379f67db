print("anim")
