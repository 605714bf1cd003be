(define (problem blocksworld-p04)
  (:domain blocks)
  (:objects
    b1 b2 b3 b4
  )
  (:init
    (clear b2)
    (clear b4)
    (on b2 b3)
    (on b3 b1)
    (ontable b1)
    (ontable b4)
    (handempty)
  )
  (:goal (and
    (on b1 b3)
    (on b2 b1)
    (on b4 b2)
  ))
)
