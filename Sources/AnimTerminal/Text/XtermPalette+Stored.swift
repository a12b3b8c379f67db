import AnimKit

/// `XtermPalette.table` as `XtermPalette.searchTable()` computes it, stored
/// (zlib in base64): the search would be much of a 256-colour preview's
/// `--frame 0`, inflating next to nothing. `XtermPaletteTableTests` checks
/// that the two agree, entry for entry.
extension XtermPalette {
    static func decodedStoredTable() -> [UInt8] {
        // The search stands in should the stored stream not inflate (the test fails first).
        guard let table = Zlib.inflate(Base64.decode(storedTable), limit: 32768), table.count == 32768 else {
            return searchTable()
        }
        return table
    }

    static let storedTable = """
        eNrt2Od7FmXaBvB/YXd9jXSQtWBURDeUDamAoWwCSE0CJiG0kADSXkokJJACSEKTojQJJSRhMaGFIuhaKG9o0kQhgLi7okAo8iKCrO513W3umbnv
        mXmeBBQPr6/neQzxw++cefzDH7755ps/8vsT3iN4/4P36KOPfkPOVLDm38LZHsDzb8lduqT8ByC/xE+fX6an/gMCWHrlypU6qj8gICDgCrs6eHXh
        LHlAwGPkRF63Hrn6eFJuLRi5QyHApRDgVJDyhg2NgvyABjxuiI1GjRrVqdO4ceO6dZs0gfjxx+s3oEfyho3wGuM1wXscroFLoYFTQc7/rC40bdqU
        pHgNn4Br9CRc46fgmjwN15Qeyf+M+ROYP4n5U1KuLTR1KTR1KTSDg/AZcoFwz+I9h/c8XjN6z+gKzVwKzcyFQGuhWTNzw1pojvcCuxZ4L8K9hPcX
        vObN5Ya90Ly5qcFzUfDgG4W7+HbJL7n7v6zLL1929G/wd/Nfbfb/iOHfZq/u7/5/9//b8v+Cd/9/svr/1g//jxi59Hp39a/z7eL/ik/+69az+q+u
        rn5I/Qf86v03eGj8B9bYf+DD6b9mvmv6fc8+8d38X9HnTLjaP+dfXW22Y/ivpvcb9h/w4P03+d2/b/6fqSX/L/rm35Pvby855TV5v18SP/Bd/F+5
        ohwobl/r3+Bv91+/vuy/2kf/9X59/h9D/3X88N/QzX9Df/03+A35D/zt+ae8W8I5+27p7f2u9E2Ju73fLzvmOt8Sf/IDwPoHBgv9dv/1if9gzv+q
        1v9Veg+T/7om/w3vj/8mD7v/p5+m/B8O/y3ug/+goCDATa4VnM4vy7W+L/EF0b/fW/r3fnf5vjf0V1eHhPwxNNTqv9q4kJCQ0NBQ8//fDw5mDQY8
        1OI/GO+qNAAK/8HBhOY1vf/gmvpvWCP/Eb+c/wY2/zgAjXEAmjQRfqPc/EfdP//RHvxH/4L+e/TowfD2RL29VP57WL4PdP5bqPwHBbU0BqA1Xhs8
        6ofklxxz9C3yVpac8zblrW05+JX+AdDLc/n9HgIx+Cb5I5ac+g4lFwan90/zsHrh4eGGf+pbLhi58H8thBXqYl7PyIOv0cO8DlmYMNQZTvySArF7
        /brGPy8oBoL5joyMVPuP4P5Jo127dnXqtG/f3vAfQQ9pRkaizXZ2/7zg4D/CzX/Hjmr/UVHcPzae6NSpUaPOnTs3btylSxfqP4ocsdkRbXZCm53N
        /nlB719bEPyj1P6j8Qj/mJiYwMCuXUFet24gr3v3559/5ZVXmpEC9Y+FQCw8i4Xnugv/vED0dlX6j/bTfw9yRH9P8N+rF/jv3bv3Sy/16QN6+/Zt
        bhRewEILLLzYG3X3kfahh7EgZEBEwepfAv5XvCD9QHjOL8sDYcnFy90+ICSX3u/SAyy5wjfk4ZhL/k28w8LC8f4qvd2vhpgKJA+X/F+7pijY/BsF
        KYfCdTxREA9geTDgvd62bVu2IGJhwtk8RPIBEANBFyac6MZ5gGuH1x6vA97LeNy/rhBhDAQUGtkKbB7UC/Lyy8w/5NR/pN1/FE5AR3Kd4JB/5y54
        f8OLEv554UlTIcooQAPmAQrYeOopWmDzYBSe6GRaELEP1omR/UcT/TExXfG6wXXHewUvWvjHQiAWYB+6PYeF5408WrMgYh/YggSyglgQsQ9GQZoY
        w39PPOTfC/n37gMH+vv27aEYCLYPfcg+NDcarID80X8f4d82AA6+LYCD5IKfufCvGAjj9a7Oq+3vd1PO/Wt8e/YvfHv3L/u+ft3FfzDqp/5NBbEP
        kZE38KwLQ3EGu/mPdPOvK0REOCwI7gPP4fUeKS8IewDVG2H476z031FX4P6jNIUoYyCUBT4PfGKkBSEFqjcmxsV/tK4QLQZAFJ6VC9FGQSwIKTxH
        C2If2MYEkgKZGGww/z3pIf9evbn/vpL/HroCz9mEtOCFl9iCmHy3dPFbK3krVX7FKaeC1f+AxP+qKg/m3/Y2322Qv4N/yfc1ybeD/+ve/Yfa/BP+
        N9z8f2f9F4j+4AfgP1LtP8Lwby7I/iNq7r+jm/8okZsKUS4Fm/9uSv8xrv41T4h2KURHKxZEKnj0by30sfnXFIJcXvC1lGsHwmterc/56105IAlX
        r9p9t25NfiC0kf3LvEP98G/nbfff1l6Q+bPXu8Y/6v9O5T+Y+/8Oj+AMRXxhwDP8gfm3FiT/Ecx/Jzf/ndz8d9L77+jmv6Pef5Qv/rsp/cfU3L95
        YWT/PbW8a8t/nBKw4a+meZBfeRsj1w0ESwFwkjJPSOALcC0JbgCcNU/gvJOSQkIGDLD5FoUQxUA4vN4t/k2f93b/N8TnvekDQXwfRN4gvK0PkL4P
        InkB/IeGdoBY+I988P7bc//884DZa4f22qO9Dh1+Jf4hVNqz+e/q5r+r3r+m4Iv/Xp7891b61xW437g4R39ec53PoJrmQXHqXwg8TkxMUuboO5Fe
        EhsA0wAlGAWeDxiQjDcQLpzm1kIoxGFhEIeH0zyB+scBoQuSjDoHCr8Jbdu2dfZ/Q+Vf8j148HfCf4gyx8LNmzdND0D/g/Aozpt4Sv+RfvnvIOVp
        av+p4udBGjaGD4d4xAiIR4L/Dn8j3wepqam/mP9RcMz/aKQ3BuSNHdu5e/dx47oI36NGPQD/6sJ4PGp3wgTAO3Ei4J2EeNOR9+sEN2/0cvNvL8TG
        cr8oMD4+vlWrfv36tW7dv3//Nm1efVXyTYRi3spL3hpiKQ9ieUuSt2Z5G3tuHphXJf+qvI2RJ0oLJeVgE8fBxLdVcrKcmwbC7H/gwATngWC5siDn
        1gLmYZjTeUhIuGF83lO+bEG0/tkHwiDBf/BgwvtmyNChQ0NDU1JSwsKGDQsfRG+wURiKl4I3DI7lOBBQ+H88zNtD3KHDsGHMt1gQ3/2nkgVIwwP9
        4H8EXPuRcB1eg0ulh/MAhwXMR2A+UsrJQKSlgd3hw8HuiBFE72vCt3ZBBP9UvX8YgNHkxuCNhRuH9794o+jhPMB15YXuvIDjwArYgAGhC9IdF8Tw
        r10QT/7Hg328iXiT8NLhXscbP54vBBZ6YaE35DAP6el9IafzwAYCF4QOCC5IejrxTy6OHviP74fXH+9VOHse708e6y1vafoD5DxWWigcKGuO/mku
        DRTkQCs21u4frj/oI7ntA8Hu2y//ybbc7F/OlQOBhWAWc/8Qh/BPEFwQkGnxb+I9zOKf8bb7pwXhXxQGmQtDhgy5dUsUII9gHxiD0uiCtLt169b3
        bEBSYEAIXsqf6Lbw5r7T0lz86wqp4tQLwtZBsyCvvUb1jjb8j1X6H60biFGjTA3bE0Q+KkYUukkFPg98Y7paFoTynuDmf7ylkM4L410KGr8CqMdc
        OyB+5PGqPNZbHmcdEJairZykJCNPZrl//jW+vfsXhQSXgRD7MFj9jQLy6Dxw/0mIcwDqSwaeA1142/wDcCf/t/Bk/4Oshe/hpAegPFwH4R9znf/h
        bv6H6/1rCsY+pCoLSt2O/scq/Y929a8ujLIUrH+DzF/B+/Xx6oHw1X+GEriDz9rOYzUDE+syICLPdsyz4XJyIM+1DMg0vOxsmufkJOXm5gKuvDz8
        QIAvBNwHKCS6+E6sdf8DrP41v1HEPMAlJsILnhdSMOf+B3v0P2SIT/5T7P6/t/jnKdqDmPC/fXvoULCXkvJA/afp/GPozf8YN/9j9P41BS/+Jyhf
        /wr/isJ4+0BMUvnPyHD055bHesz1fjPUL/hY3T9g85+hHJhpsn8+AHJu+CcDkIuXhzcdj+bSQBiFZMwHTpMKiTggdEHIgEDMfE7zz7/kO2Gm+gNB
        xHCqgZhBD2nOnIn8h8yaBTrz80FngfX3geXzXuP/e0/+h1ryOXPm0Pz2bfQ/dP58yN/E74PZcBJOzG8/MP8LFiwg6eiFcGlpixYNH7548eIRI956
        662RI99++22ECZ0H4F9dWIJH6C5dunTixGXLlk2atHz58vT0FStA7zvvENxLJnj0by9MxiO+EdiUKVPi4zMzM/v1y8rK6t9/6tSpNOZ5nCIXA8Hz
        eDk3+Jrzfuo8zpT3nyr7pw9A35nc71TZP32AZWDM/mEAcnNNA2L1bx0AvX85VxbkfJpuYRLoBwb/xMhBvvQThA6I4Vs9EDNmCP7QeOONN5KSZs2a
        NSAfLjm5oKCA+Sf5zDfwZuFhnl9g5MpCCuTELl8Q6fOe+i+QfKv8pwwD20w/3Ny5c2/Tmw/3Jt5sdqKAjR9+mM8LPAe6vPADHi9Q2+YF8dE/LsBC
        covwgP/it/DexlvATlfgOdqFwhjIx46FwrhxtMBwaxfEk/8lS+ktw1uOtwLuHbwl7CZoCuNFQSzIJFyQdLYgk+ll0JuCl4kHfrOmMv9G4X7nGaY8
        S8qlB8Q75HE872fOER/EOZDDAGRm5uVBPH361Km++M/2zX+e2r95IKa5DITIZyoKkCNNxl/Fu0b+86VcWZDzGXNIgXzeSw+w6p6r9j/HaJh4W/aB
        F+bN44XZs+0LMm/enTt3WCHVKJABGY6FO3fu3r1Lcwk35b1Y6X+hm/8FmicscCnQzws2IQv5ghgFj/6thRW8wPkv0RScfGb54NOHfIqLb095pjrP
        0OXUvz1HWnQebHyzlP7Vvv3yn6f2n+OQ2wZixgw2D3DZ2YAzJwfw5eYCvry8goLpD86/pSD5x3Ew+yc4823+57r5n0t5z1P4lwp37hj+Z1sGghTu
        3lX6F7oXQ6z1v1jpf6Gf/he4FGy6zbxr2b/el195lotf3/MMba4ZEBGvW6fMi4qKaLouO7u4uDgnp6SkJDe3tBT94wcCwVXk0b+Db1/953r0b3wf
        zJxpekA+5tz/zPvjP9/dv/F5MId+IJDPe8jBf37+mwW2t7s3/3d89z9H4X8++Cehzf+PP/443/BtGwiN/0V6/5qC1f8ihf+lyte/7F9fWGIfiOUq
        /4WFhMcqna+a54XOfqV8ipc80+rfOQfgxao/oIgMwDpyxXjgv6QUbz0eyYuKLDkp5GE+vUgqmAYEFgRi7rNI4l2CPHFg8ta7+Jd9b1B/IIgYDvN3
        LQ/4Oz2Sb3gXr6ysbNas8vLy/PyNGy2/D2rT/yxLvnnzZsy3QLx1K8QVFZBvK9hEj9jcjDa34Nf9vArEuW2b6vfB3HkSb41/wdvV//bt22m8A27O
        nJ0758597z3UjwOwe/fuBQu24xGbO9DmToIT43u1619deJ8cyP0Abtk/4JZ/CPcR3Md4aJvknvzbCyvpFZLLWLUKAK9evTozc82aNVlZa9euZflk
        53wyyzPU+WRTPgXzTJGLfaD5KimHguSfLICXfArmmSSX/RcW4wKUyDn1XzRZ5ZsOgOx/nTYv0j6gyFZQ56SAnyA4EMaArDd8qwZiPfgW/DdkI+8c
        8F2WC77L8zbCMf8bTP7LyjAvl3JlAXOkSwoS7zLkjQOST3PqWz0QiJvqh9sCtxWvAm8bHvO/WVfYtMnUsBUoXtOCyLyV/u+a/cMC7KC3E+89OOof
        +O/ezs5WuHfvnpxvX2gu3LtHCww3WxB//X9AD/n/40OT//fflxv2As/ftyzICiy88/HHK00DsApvNR74XbPW8K/M1/icF2rzld7zVf7k6B+uGOKS
        EshLMV+/di2xt9IH/2q/Pvg3Cjb/ioEQ+Qb1A5AmpkJvMeotQb6lNfVfLuW6gfi7rsAeYNXtr39dYZN5IGz/xCZVgXze01zCbeB9T/DfbeK/QxQ4
        b8O/rbBr1y45txb+gyfn0oLQwk9wu2X+Dv6thY9s/jWF2vLrQ+7J72pfc9WAyDn1b/sDUD+dB4ZrFeJajbrW+Ox/nW/+S9X+i5W5ZiDEPMBBDP5x
        AEpgACDeuHH9r8A/hoa9dxFnGeIrt/nf4uZ/i97/Zh/8iwL1v0Pp/57d/069f+tA7Nrls39L4SfhX81f5/9DN/8f6v3rfRVqBmKly4DUcl6ozTUf
        AEZ+QPkfKH0f4EAUGx8IpeQDwe7/EOo7jPqOKP2rffvq3+rbzX/RBssHAvov5f6L7o//cnf/IgZ7orCVF7Zt3OTygVB7/jcr/YuY0KMF8I+8KyqE
        3x0q/7scfh+gf+St+j4w/P9k97/T7v8Djf+f8Rx+H3zk9vtA9r9nD+GxF3nsU/ipab7SW673u6fQ0a9uQAz+B5QDUllZSVO4g3iH8A7DrVlz5MgR
        zOEOHBAFkZdCfGR9pVRYBzHswyFYCMyxYPF/0DYgnv0fVX8gGPlR0jhmecCn5Eh89OgxvONwZSdOnCgvP3nyJPf5qZL3yRr4L7Pkp06dwvxziL/4
        AuLTpyE/s/EzegAPCqc+h/sC7/Tp0xUVZ86cUfw+qE3/FduqqqpofBZu87lz57ZsOX/+/NatX375ZUXFhQsXqughTSjs3HnuHNA8fx6/7ndduKD6
        fWB6vTv4J7z1/n+i/r+i909y/8L7N97XcMQ/y4nuf6Luf6Huf6Pur4190A/EJ+z24BXuhVu1D271frj/g3PK1/icF3rJsbB6tSVf6ZiTASITZMqh
        YPA/wB6AA4QLBDHkRO/KAwr/h9H3EZv/g6q8UvuASnXBlleaF6aELwzFXVl59CjsC1sQHJgSHBgoENyM9zrkXYy+S8D3iVLwfZL6//So2f9xzE9I
        ubIg55ZCGVkQyA3f6oEguhE/0y14nz59Bo/5P2U0zIXPPjM1bIVNokAWZAsvbGULIvif1fqvqjrLDvifO4/3Jd6FC4b/KqNwzlSocikgbDEh8oIQ
        3jRXDgTGP/+8W+bv4F87EF99ZWqIAuZfX7x40eRvD/rdiz737WcDULv5Hm3+ifd8r5d8nyWn/vccxPwQxIcxP0L905jp3Iv89iG//Xr/Nr+++j/k
        4l88QORH1Q9AmpjiHUCcB1HvIeR7uKb+T+j9i4H4VFGQH2DV7a9/3RM+Mw+EuWDK1QXZ/zm9f+1AKPybClUuhaoqS0MUCO8LMn+LXtm/pnDx4lea
        gVD73+O33z0++vTVr2uuGZBPjAFQ5kQ/GwCYB/CPA7APB2D/fl/9O7zfdQ+odPlAqHQZCDEP6P8ALADkxyEG/odhAI78Ev6Pmf1jSOwdRXvHjoG9
        48cB34kTVv+f18C/puDF/1mv/s/p/Z+tuX9lQclf599SAN4q/6bCfwFY0b6Z
        """
}
